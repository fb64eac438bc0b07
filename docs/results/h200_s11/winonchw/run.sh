# Session 11, call 1: NCHW Winograd transforms through shared-memory blocks (perf-notes item 34).
# device_run.sh epi: old = 32331af, new = this build, fp32 NCHW b32 + b1 and cuDNN fp32 in one call, tests;
# then implicit_gemm_nhwc forced on ResNet-50 b32/b1 (router calibration data).
# Packed with OLD_BUILD=<32331af build> scripts/device_pack.sh build-dev; run as OUT=... bash .carry/run.sh
STATS_BUILDS="" EPI_ORDER="old new" EPI_NHWC=0 TEST_S=120 \
  TEST_FILTER='*inograd*:All/Edges*__auto' \
  bash scripts/device_run.sh epi 2>&1 | grep -E "^==|^[a-z0-9_]+ +(1|32) fp32|passed|PASSED|FAILED|exit"
source scripts/device_run.sh none > /dev/null 2>&1
for b in 32 1; do
  say "implicit_gemm_nhwc forced b$b"
  run_build new --suite resnet50 --suite mobilenet_v2 --batch $b --dtype fp32 --layout nchw --algo implicit_gemm_nhwc --check \
    --json "$OUT/nhwcforced_b$b.json" > "$OUT/nhwcforced_b$b.txt" 2>&1; echo "exit $?"
done
