# Session 32, call 4: the router's tile and split on the 31 matrix-kernel layers furthest behind
# cuDNN at b32 (layers.csv: session 31's fp16 NHWC b32 rows at >= 1.6x and >= 3 us behind, less the
# 1x1 layers pointwise_coopmat now takes): the router's plan (auto), then 7 tiles x 1, 2, 4, 8
# splits forced on every row (a split is clamped to the row's slices), then auto again; fp16 NHWC
# b32, every row checked.  Perf-notes item 90.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
L=docs/results/h200_s32/split/layers.csv
RUN_TIMEOUT=60 bench_checked new auto1 --shapes $L --batch 32 --dtype fp16 --layout nhwc
for t in 64x64x32/2x4 64x64x64/2x4 128x128x32/2x4 128x64x32/2x2 64x32x16/2x1 128x128x64/2x4s1 192x128x64/4x4s1; do
  for s in 1 2 4 8; do
    n=t_${t//\//_}_s$s
    LEFT=$(( 540 - ($(date +%s) - T0) )); [ $LEFT -lt 30 ] && break 2
    RUN_TIMEOUT=$(( LEFT < 60 ? LEFT : 60 )) run_build new --shapes $L --batch 32 --dtype fp16 --layout nhwc \
      --algo implicit_gemm_coopmat --tile $t/s$s --check --json $OUT/$n.json > $OUT/$n.txt 2>&1; echo "$t/s$s exit $? $(( $(date +%s) - T0 )) s"
  done
done
LEFT=$(( 580 - ($(date +%s) - T0) )); [ $LEFT -gt 20 ] && RUN_TIMEOUT=$(( LEFT < 60 ? LEFT : 60 )) bench_checked new auto2 --shapes $L --batch 32 --dtype fp16 --layout nhwc
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt && rm -f *.json *.txt; ls -la | head)
