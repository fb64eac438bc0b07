# Session 11, call 7: the last build (out4 over staging on 8x8 and shallow 8x4 tiles), fp32 NCHW
# b32 + b1 and cuDNN fp32 (TF32 off) in one call (the README's fp32 columns), then the tests of
# the paths this session changed with the validation layer.
# Packed with scripts/device_pack.sh build-dev; run as OUT=... bash .carry/run.sh
source scripts/device_run.sh none > /dev/null 2>&1
fp32_auto_and_cudnn 2>&1 | grep -vE "vkconv_tests|PASSED|^[0-9]+$"
tests_validated tests_last.log 200 '*VecOut*:*FourPixel*:*IgemmTiles*:*SplitK*:All/Edges*__auto:All/Edges*__implicit_gemm:*inograd*:*epthwise*'
(cd "$OUT" && tar czf results-last.tgz *.json *.txt && rm -f *.json *.txt)
