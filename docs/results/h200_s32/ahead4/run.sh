# Session 32, call 5: implicit_gemm_coopmat loading four slices ahead instead of two (PREFETCH4,
# VKCONV_COOPMAT_AHEAD4=1, ahead4.patch on eefb095; measured, not kept: perf-notes 91), one binary,
# every row checked, fp16 NHWC:
#  1. the 31 rows of ../split/layers.csv at b32 (the small-grid deep-reduction layers): two / four /
#     two / four ahead;
#  2. every suite at b1, two / four ahead;
#  3. ResNet-50, MobileNetV2 and RetinaNet at b32, two / four ahead;
#  4. the matrix kernel's tile and shape tests four ahead, validation layer on, in the time left.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
L=docs/results/h200_s32/split/layers.csv
for i in 1 2; do
  RUN_TIMEOUT=60 bench_checked new layers_a2_$i --shapes $L --batch 32 --dtype fp16 --layout nhwc
  VKCONV_COOPMAT_AHEAD4=1 RUN_TIMEOUT=60 bench_checked new layers_a4_$i --shapes $L --batch 32 --dtype fp16 --layout nhwc
done
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
RUN_TIMEOUT=80 bench_checked new b1_a2 $ALL --batch 1 --dtype fp16 --layout nhwc
VKCONV_COOPMAT_AHEAD4=1 RUN_TIMEOUT=80 bench_checked new b1_a4 $ALL --batch 1 --dtype fp16 --layout nhwc
S3="--suite resnet50 --suite mobilenet_v2 --suite retinanet_head"
RUN_TIMEOUT=100 bench_checked new b32_a2 $S3 --batch 32 --dtype fp16 --layout nhwc
VKCONV_COOPMAT_AHEAD4=1 RUN_TIMEOUT=100 bench_checked new b32_a4 $S3 --batch 32 --dtype fp16 --layout nhwc
LEFT=$(( 560 - ($(date +%s) - T0) ))
[ $LEFT -gt 20 ] && VKCONV_COOPMAT_AHEAD4=1 tests_validated tests_ahead4.log $LEFT 'coopmat/CoopmatTiles.*:coopmat/CoopmatShapes.*'
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log && tar czf results.tgz *.json *.txt *.xz && rm -f *.json *.txt *.xz; ls -la | head)
