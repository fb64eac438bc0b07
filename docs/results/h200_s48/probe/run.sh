# Session 48, call 1: the shared-memory probe with B taken from global memory in fragment order
# (filters pre-packed in the matrix units' register layout, A alone restaged): the new GlobalB
# rows of vkconv-bench --peak beside the existing ones, twice; then the probe pipelines' NVIDIA
# register counts (--shader-stats, the peak rows at its end).
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
for i in 1 2; do
  say "peak $i"
  timeout 200 $C/bin/vkconv-bench --peak > $OUT/peak$i.txt 2> $OUT/peak$i.err
  echo "exit $?"
done
grep -E "coopmat" $OUT/peak2.txt | sed 's/ (best.*check/ check/' | sed 's/coopmat f16 from shared memory, //' | cut -c1-220
say stats
timeout 200 $C/bin/vkconv-bench --shader-stats --algo direct > $OUT/stats.txt 2>&1
echo "exit $?"
grep -E "peak_cm_smem" $OUT/stats.txt | cut -c1-200
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && tar czf results.tgz *.txt *.err && rm -f *.txt *.err; ls -la)
