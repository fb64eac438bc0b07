# Session 49, call 2: 8-byte stores of 4 filters for NHWC outputs where 4 but not 8 divides
# K/groups (halo_coopmat, implicit_gemm_coopmat and so winograd's batched GEMM writing M; perf-notes
# 131), against the element stores they replace (VKCONV_NHWC_OUT4=0) in one binary: RetinaNet's five
# 36-filter box heads and a 40-filter control, fp16 and bf16, NHWC and NCHW, b32 and b1, old then
# new, b32 NHWC a second time; every row checked.  Then the matrix kernels' and winograd's tests
# with the validation layer and the router's 16-bit plans against the golden list.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
D=docs/results/h200_s49/out4
for dt in fp16 bf16; do
  for l in nhwc nchw; do
    for b in 32 1; do
      VKCONV_NHWC_OUT4=0 RUN_TIMEOUT=60 bench_checked new old_${dt}_${l}_b${b}_1 --shapes $D/box.csv --batch $b --dtype $dt --layout $l
      RUN_TIMEOUT=60 bench_checked new new_${dt}_${l}_b${b}_1 --shapes $D/box.csv --batch $b --dtype $dt --layout $l
    done
  done
done
for dt in fp16 bf16; do
  VKCONV_NHWC_OUT4=0 RUN_TIMEOUT=60 bench_checked new old_${dt}_nhwc_b32_2 --shapes $D/box.csv --batch 32 --dtype $dt --layout nhwc
  RUN_TIMEOUT=60 bench_checked new new_${dt}_nhwc_b32_2 --shapes $D/box.csv --batch 32 --dtype $dt --layout nhwc
done
say plans
$B --suite resnet50 --suite vgg16 --suite mobilenet_v2 --suite retinanet_head --suite sd_vae_decoder --suite rdna1_matrix --batch 1 --batch 32 --dtype fp16 --dtype bf16 --layout nhwc --layout nchw --plan-only --csv "$OUT/plans16.csv" > /dev/null 2>&1
echo "exit $?"
# The cases with 4-filter words first (every tile of the 20-filter case), then the kernels' others.
L=$(( 560 - ($(date +%s) - T0) )); [ $L -gt 20 ] && tests_validated tests_out4.log $L '*out4*:*k18*:*bf16_k20*:*WinogradCoopmat*k20*'
L=$(( 570 - ($(date +%s) - T0) )); [ $L -gt 20 ] && tests_validated tests.log $L '*HaloCoopmat*:*CoopmatShapes*:*WinogradCoopmat*:-*out4*:*k18*:*bf16_k20*:*WinogradCoopmat*k20*'
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.err *.xz *.csv && rm -f *.json *.txt *.err *.xz *.csv; ls -la | head)
