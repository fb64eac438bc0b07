# Session 37, call 4: the shared-memory-fed matrix probe (`--peak`, shaders/peak/coopmat_smem.comp)
# in every mode, now also with each subgroup restaging its own rows between subgroup barriers
# (no workgroup barrier: the lock-step's cost), twice; then the kernels whose subgroup layout the
# probe's shapes mirror, forced one pass on three big fp16 NHWC b32 layers (big.csv), checked, so
# that each tile's rate sits beside its ceiling from the same call (perf-notes 100).
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
D=docs/results/h200_s37/ceiling
for i in 1 2; do
  say "peak $i"
  timeout 200 $C/bin/vkconv-bench --peak > $OUT/peak$i.txt 2> $OUT/peak$i.err
  echo "exit $?"
done
grep -E "coopmat" $OUT/peak2.txt | sed 's/ (best.*check/ check/' | cut -c1-230
for t in 128x256x32/2x4s1 192x128x64/4x4s1 128x128x64/2x4s1 128x128x32/2x4 128x64x32/2x2 64x64x64/2x4; do
  RUN_TIMEOUT=60 bench_checked new big_${t//\//_} --shapes $D/big.csv --batch 32 --dtype fp16 --layout nhwc --algo implicit_gemm_coopmat --tile $t/s1
done
RUN_TIMEOUT=60 bench_checked new big_auto --shapes $D/big.csv --batch 32 --dtype fp16 --layout nhwc
timeout 120 $C/bin/vkconv-bench --shader-stats --algo direct > $OUT/stats.txt 2>&1; echo "stats exit $?"; grep peak_cm_smem $OUT/stats.txt
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && tar czf results.tgz *.txt *.err *.json && rm -f *.txt *.err *.json; ls -la)
