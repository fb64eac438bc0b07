# Session 37, call 8: the probe as committed: restaging stores the data words only, in
# implicit_gemm_coopmat's conflict-free order (calls 3, 4 and 6 stored every word, padding
# included: 25 % more stores on 32-deep rows; call 7 the data words with 2-way bank conflicts).
# Item 100's table is this call's; --peak twice.
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
