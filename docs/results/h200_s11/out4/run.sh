# Session 11, call 4: the direct epilogue in 16-byte stores (VEC_OUT, "out4").  device_run.sh epi:
# NVIDIA's register counts of both builds' implicit_gemm pipelines, fp32 NCHW b32 + b1 and fp32
# NHWC b32, old (the small-grid commit) then new, cuDNN fp32 in the same call, tests.
# Packed with OLD_BUILD=<previous commit's build> scripts/device_pack.sh build-dev; run as OUT=... bash .carry/run.sh
STATS_BUILDS="old new" EPI_ORDER="old new" EPI_NHWC=1 TEST_S=200 \
  TEST_FILTER='*VecOut*:*FourPixel*:*IgemmTiles*:*SplitK*:All/Edges*__auto:All/Edges*__implicit_gemm:*inograd*' \
  bash scripts/device_run.sh epi 2>&1 | grep -E "^==|^[a-z0-9_]+ +(1|32) fp32|passed|PASSED|FAILED|exit|implicit_gemm"
