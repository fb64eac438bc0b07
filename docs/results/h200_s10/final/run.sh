# Final A/B of session 10: device_run.sh epi (old = 43e5e1d, new = this build; cuDNN; tests), then fp16 NHWC old/new.
# Packed with OLD_BUILD=<43e5e1d build> scripts/device_pack.sh build-dev; run as OUT=... bash .carry/final.sh
STATS_BUILDS="new" EPI_ORDER="old new" EPI_NHWC=0 TEST_S=170 \
  TEST_FILTER='*IgemmTiles*:*SplitK*:All/Edges*__implicit_gemm:All/Edges*__implicit_gemm_nhwc:All/Edges*__auto:*inograd*' \
  bash scripts/device_run.sh epi 2>&1 | grep -E "^==|^[a-z0-9_]+ +(1|32) fp32|passed|PASSED|FAILED|exit"
source scripts/device_run.sh none > /dev/null 2>&1
for v in old new; do
  say "fp16 nhwc b32+b1 $v"
  run_build $v --suite resnet50 --suite vgg16 --suite mobilenet_v2 --batch 32 --batch 1 --dtype fp16 --layout nhwc --check \
    --json "$OUT/fp16_$v.json" 2>&1 | grep -E "^[a-z0-9_]+ +(1|32) fp16|passed"
done
(cd "$OUT" && tar czf results-fp16.tgz fp16_*.json && rm -f fp16_*.json)
