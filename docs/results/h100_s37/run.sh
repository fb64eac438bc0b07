# Session 37, call 9 (NVIDIA H100, asked for by kind): `vkconv-bench --peak` as committed (a775ef2),
# twice: the register-fed peaks and the matrix kernels' slice loop fed from shared memory, for a
# second card beside the H200's (perf-notes 100).
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
for i in 1 2; do
  say "peak $i"
  timeout 200 $C/bin/vkconv-bench --peak > $OUT/peak$i.txt 2> $OUT/peak$i.err
  echo "exit $?"
done
grep -E "coopmat|FMA|copy" $OUT/peak2.txt | sed 's/ (best.*check/ check/' | sed 's/coopmat f16 from shared memory, //' | cut -c1-200
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && tar czf results.tgz *.txt *.err && rm -f *.txt *.err; ls -la)
