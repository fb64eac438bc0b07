# Session 49, call 1 (diagnosis on f5bc9be: no change to the library).  (1) What the element-wise
# NHWC output costs the 36-filter RetinaNet box heads: each head beside the same layer with 40
# and 48 filters, which run the same tile (256x48/4x1 at b32) with 16-byte stores, router plans,
# fp16 and bf16 NHWC, b32 and b1, twice, every row checked.  (2) VGG-16 features.24 b1 (the
# router's largest single miss, perf-notes 129): forced direct tiles and splits beside F(2x2).
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
D=docs/results/h200_s49/diag
for i in 1 2; do
  for dt in fp16 bf16; do
    for b in 32 1; do RUN_TIMEOUT=90 bench_checked new box_${dt}_b${b}_$i --shapes $D/boxk.csv --batch $b --dtype $dt --layout nhwc; done
  done
done
for dt in fp16 bf16; do
  RUN_TIMEOUT=40 bench_checked new f24_${dt}_router --shapes $D/f24.csv --batch 1 --dtype $dt --layout nhwc
  RUN_TIMEOUT=40 bench_checked new f24_${dt}_w2 --shapes $D/f24.csv --batch 1 --dtype $dt --layout nhwc --algo winograd --tile 2x2
  for t in 128x128x64/2x4s1/s8 128x128x64/2x4s1/s16 64x64x64/2x4/s4 64x64x64/2x4/s8 64x64x64/2x4/s16 64x64x32/2x4/s8 64x64x32/2x4/s16 128x128x32/2x4/s16 32x64x64/2x2k2 64x64x64/2x2k2; do
    n=$(echo $t | tr '/x' '__')
    RUN_TIMEOUT=40 bench_checked new f24_${dt}_$n --shapes $D/f24.csv --batch 1 --dtype $dt --layout nhwc --algo implicit_gemm_coopmat --tile $t
  done
done
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt && rm -f *.json *.txt; ls -la | head)
