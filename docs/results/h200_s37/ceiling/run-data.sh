# Session 37, call 7: restaging stored the data words only, but in row-major order (neighbouring
# invocations two rows apart in one bank group: 2-way conflicts on 32-deep rows); superseded by
# call 8 (run-swizzled.sh), which stores them in the kernel's conflict-free order.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
for i in 1 2; do
  say "peak $i"
  timeout 200 $C/bin/vkconv-bench --peak > $OUT/peak$i.txt 2> $OUT/peak$i.err
  echo "exit $?"
done
grep -E "coopmat" $OUT/peak2.txt | sed 's/ (best.*check/ check/' | sed 's/coopmat f16 from shared memory, //' | cut -c1-200
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && tar czf results.tgz *.txt *.err && rm -f *.txt *.err; ls -la)
