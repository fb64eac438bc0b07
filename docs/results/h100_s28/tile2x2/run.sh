# Session 28, call 1: perf-notes item 19 again on today's kernel.  128x128x32/2x2 (four subgroups
# of 64x64, double-buffered, 36 KiB): two workgroups per SM if NVIDIA's compiler keeps it under
# 256 registers, so one workgroup's barrier waits overlap the other's products.  Forced tile only
# (not routed).  One binary:
#  - NVIDIA's register counts for the new tile and 128x256x32/2x4s1 (--shader-stats);
#  - the 15 forced-tile tests on the new tile, validation layer on;
#  - implicit_gemm_coopmat forced, fp16 NHWC: the router's tile, then the new tile (loads two
#    slices ahead, NVIDIA's default for 32-deep slices, and one slice ahead), VGG-16 and the
#    RetinaNet head at b32, SD-VAE at b1, ResNet-50 at b32.
# Every bench row checked against the float64 reference.
T0=$(date +%s)
for f in .carry/bin/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
say stats
timeout 100 $C/bin/vkconv-bench --shader-stats --algo implicit_gemm_coopmat --tile 128x128x32/2x2 > "$OUT/stats_2x2.txt" 2>&1; echo "exit $?"
timeout 60 $C/bin/vkconv-bench --shader-stats --algo implicit_gemm_coopmat --tile 128x256x32/2x4s1 > "$OUT/stats_2x4s1.txt" 2>&1; echo "exit $?"
grep -E "^[0-9]+ +implicit_gemm_coopmat" "$OUT/stats_2x2.txt" "$OUT/stats_2x4s1.txt" | awk '{print $1, $3, $5, $11, $NF}' | cut -c1-160
tests_validated tests.log 90 '*128x128x32_2x2'
CM="--algo implicit_gemm_coopmat --dtype fp16 --layout nhwc"
T22="--tile 128x128x32/2x2"
RUN_TIMEOUT=100 bench_checked new vr_auto --suite vgg16 --suite retinanet_head --batch 32 $CM
RUN_TIMEOUT=100 bench_checked new vr_2x2 --suite vgg16 --suite retinanet_head --batch 32 $CM $T22
VKCONV_COOPMAT_AHEAD2=0 RUN_TIMEOUT=100 bench_checked new vr_2x2_a1 --suite vgg16 --suite retinanet_head --batch 32 $CM $T22
RUN_TIMEOUT=60 bench_checked new sd_auto --suite sd_vae_decoder --batch 1 $CM
RUN_TIMEOUT=60 bench_checked new sd_2x2 --suite sd_vae_decoder --batch 1 $CM $T22
LEFT=$(( 480 - ($(date +%s) - T0) ))
[ $LEFT -gt 40 ] && RUN_TIMEOUT=$(( LEFT / 2 )) bench_checked new rn_auto --suite resnet50 --batch 32 $CM
LEFT=$(( 500 - ($(date +%s) - T0) ))
[ $LEFT -gt 20 ] && RUN_TIMEOUT=$LEFT bench_checked new rn_2x2 --suite resnet50 --batch 32 $CM $T22
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.log && rm -f *.json *.txt *.log; ls)
