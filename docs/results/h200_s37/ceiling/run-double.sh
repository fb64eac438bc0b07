# Session 37, call 6: the probe with its double-buffered mode added (two copies of the staged tile:
# each slice multiplies one, restages the other, one barrier: a double-buffered kernel's slice
# without its global loads), on the three layouts whose two copies fit 48 KiB; --peak twice.
T0=$(date +%s)
# As run: the restaged and double-buffered rows stored every word, padding included (call 8,
# run-swizzled.sh, stores the data words only, as the kernels do).
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
for i in 1 2; do
  say "peak $i"
  timeout 200 $C/bin/vkconv-bench --peak > $OUT/peak$i.txt 2> $OUT/peak$i.err
  echo "exit $?"
done
grep -E "coopmat" $OUT/peak2.txt | sed 's/ (best.*check/ check/' | cut -c1-230
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && tar czf results.tgz *.txt *.err && rm -f *.txt *.err; ls -la)
