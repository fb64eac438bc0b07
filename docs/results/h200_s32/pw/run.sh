# Session 32, call 1: the streaming 1x1 kernel (pointwise_coopmat, perf-notes 89) and the loop-free
# pixel-row masks (perf-notes 88) on the H200.
#  1. pointwise_coopmat's tests on real cooperative matrices, validation layer on;
#  2. the 8 layers of the suites it takes (layers.csv), fp16 and bf16 NHWC at b32 and b1: the router
#     without it (VKCONV_POINTWISE_COOPMAT=0: the old choice) and with it, one binary, every row checked;
#  3. a tile sweep at fp16 b32; 4. cuDNN on the same rows;
#  5. its machine code (registers, local memory), and the scalar GEMM's local memory (the driver's
#     statistics of every implicit_gemm variant) after the mask change;
#  6. fp32 NHWC b32 A/B against the old build (.carry/old, f8c3757): the router, and the `taps` tile
#     128x64x16/8x4 forced (227 local accesses per 512 FFMA before);
#  7. the matrix kernels' tests (makePixelRow is theirs too) in the time left.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/old/bin/*.xz .carry/lib/*.xz .carry/old/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
L=docs/results/h200_s32/pw/layers.csv
ND=$(which nvdisasm || ls /usr/local/cuda*/bin/nvdisasm | head -1)
tests_validated tests_pw.log 150 '*Pointwise*'
for dt in fp16 bf16; do for b in 32 1; do
  VKCONV_POINTWISE_COOPMAT=0 RUN_TIMEOUT=60 bench_checked new ${dt}_b${b}_off --shapes $L --batch $b --dtype $dt --layout nhwc
  RUN_TIMEOUT=60 bench_checked new ${dt}_b${b}_on --shapes $L --batch $b --dtype $dt --layout nhwc
done; done
say sweep
for t in 16x64/4p1 16x64/4p4 16x64/4p16 32x64/4p4 16x128/4p4 16x64/8p4 16x64/2p8 32x32/4p8; do
  n=sweep_${t//\//_}
  RUN_TIMEOUT=40 run_build new --shapes $L --batch 32 --dtype fp16 --layout nhwc --algo pointwise_coopmat --tile $t --check \
    --json $OUT/$n.json > $OUT/$n.txt 2>&1; echo "$t exit $?"
done
say cudnn
timeout 90 python3 bench/torch_baseline.py --shapes $L --config fp16_nhwc --config bf16_nhwc --batch 1 --batch 32 \
  --json $OUT/cudnn.json > $OUT/cudnn.txt 2> $OUT/cudnn.err; echo "exit $?"
say "machine code"
VKCONV_CACHE_DIR=none timeout 60 $C/bin/vkconv-bench --shader-stats --algo pointwise_coopmat --isa /tmp/isa_pw --json $OUT/stats_pw.json > $OUT/stats_pw.txt 2>&1
echo "exit $?"; timeout 60 python3 bench/nv_sass.py /tmp/isa_pw --nvdisasm "$ND" --jobs 8 > $OUT/sass_pw.txt 2>&1; head -40 $OUT/sass_pw.txt
VKCONV_CACHE_DIR=none timeout 150 $C/bin/vkconv-bench --shader-stats --algo implicit_gemm --json $OUT/stats_ig.json > $OUT/stats_ig.txt 2>&1
echo "exit $?"; tail -3 $OUT/stats_ig.txt
VKCONV_CACHE_DIR=none timeout 150 $C/bin/vkconv-bench --shader-stats --algo implicit_gemm_splitk --json $OUT/stats_igsk.json > $OUT/stats_igsk.txt 2>&1
echo "exit $?"; tail -3 $OUT/stats_igsk.txt
say "fp32 A/B"
for v in old new old new; do
  RUN_TIMEOUT=60 run_build $v --suite mobilenet_v2 --suite resnet50 --batch 32 --dtype fp32 --layout nhwc --algo implicit_gemm \
    --tile 128x64x16/8x4 --check --json $OUT/taps_$v.json > $OUT/taps_$v.txt 2>&1; echo "taps $v exit $?"
done
LEFT=$(( 555 - ($(date +%s) - T0) ))
[ $LEFT -gt 20 ] && tests_validated tests_coopmat.log $LEFT 'coopmat/CoopmatShapes.*:coopmat/CoopmatTiles.*:coopmat/HaloCoopmatTiles.*'
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log && tar czf results.tgz *.json *.txt *.err *.xz && rm -f *.json *.txt *.err *.xz; ls -la)
