# Session 37, call 10: the probe with rows that declare more shared memory per workgroup (24, 32,
# 40, 46 KiB) on the four-subgroup layouts, a barrier per slice: where a second (or third, fourth)
# resident workgroup stops filling the barrier's wait, the driver's shared-memory carveout per SM
# has run out; --peak twice.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
for i in 1 2; do
  say "peak $i"
  timeout 200 $C/bin/vkconv-bench --peak > $OUT/peak$i.txt 2> $OUT/peak$i.err
  echo "exit $?"
done
grep -E "coopmat" $OUT/peak2.txt | grep -E "2x2\)|KiB" | sed 's/ (best.*check/ check/' | sed 's/coopmat f16 from shared memory, //' | cut -c1-200
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && tar czf results.tgz *.txt *.err && rm -f *.txt *.err; ls -la)
