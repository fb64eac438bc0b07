# Session 11, call 3: device_run.sh epi (old = 32331af, new = this build): fp32 NCHW b32 + b1 and
# cuDNN fp32 (TF32 off) in one call, tests with the validation layer; then a forced-tile sweep at
# batch 32 (ResNet-50, MobileNetV2; one pass) for the router's next question.
# Packed with OLD_BUILD=<32331af build> scripts/device_pack.sh build-dev; run as OUT=... bash .carry/run.sh
STATS_BUILDS="" EPI_ORDER="old new" EPI_NHWC=0 TEST_S=200 \
  TEST_FILTER='*inograd*:*SplitK*:*FourPixel*:*IgemmTiles*:All/Edges*__auto:All/Edges*__implicit_gemm' \
  bash scripts/device_run.sh epi 2>&1 | grep -E "^==|^[a-z0-9_]+ +(1|32) fp32|passed|PASSED|FAILED|exit"
source scripts/device_run.sh none > /dev/null 2>&1
for t in 128x128x8/8x8 128x64x8/8x4 128x64x16/8x4 64x64x8/4x4; do
  say "b32 implicit_gemm $t"
  run_build new --suite resnet50 --suite mobilenet_v2 --batch 32 --dtype fp32 --layout nchw --algo implicit_gemm --tile $t --check \
    --warmup-ms 50 --json "$OUT/sw32_${t//\//_}.json" > "$OUT/sw32_${t//\//_}.txt" 2>&1; echo "exit $?"
done
(cd "$OUT" && tar czf results-sw32.tgz sw32_* && rm -f sw32_*)
