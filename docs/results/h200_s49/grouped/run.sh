# Session 49, call 5 (the build of call 4; diagnosis): why winograd's GEMM for SSD's 126-filter
# head ran slower with 4-byte stores of 2 filters (call 4: 163 -> 185 µs fp16 b32).  Its GEMM alone
# as a grouped 1x1 problem (`gemm.csv`: 36 groups of 3200 rows x 512 -> 126 filters, and 128 as a
# control; the same with one group), three tiles forced one pass, the element stores
# (VKCONV_NHWC_OUT4=0) then the narrow words, fp16 and bf16, every row checked; then NVIDIA's
# registers and spills for those tiles' variants (`--shader-stats`).
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
D=docs/results/h200_s49/grouped
for dt in fp16 bf16; do
  for t in 192x128x64/4x4s1/s1 128x256x32/2x4s1/s1 128x128x64/2x4s1/s1; do
    n=$(echo $t | cut -d/ -f1)
    VKCONV_NHWC_OUT4=0 RUN_TIMEOUT=40 bench_checked new old_${dt}_$n --shapes $D/gemm.csv --batch 1 --dtype $dt --layout nhwc --algo implicit_gemm_coopmat --tile $t
    RUN_TIMEOUT=40 bench_checked new new_${dt}_$n --shapes $D/gemm.csv --batch 1 --dtype $dt --layout nhwc --algo implicit_gemm_coopmat --tile $t
  done
done
for t in 192x128x64/4x4s1 128x256x32/2x4s1; do
  n=$(echo $t | cut -d/ -f1)
  say "stats $t"
  timeout 150 $B --shader-stats --algo implicit_gemm_coopmat --tile $t --json "$OUT/stats_$n.json" > "$OUT/stats_$n.txt" 2>&1
  echo "exit $?"; grep -E "pipelines,|k36|k42" "$OUT/stats_$n.txt" | head -12
done
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt && rm -f *.json *.txt; ls -la | head)
