# A/B of this session's second build (new: linear-indexed transpose, taps on 8-row tiles only)
# against the first (r1): fp32 NCHW b32/b1, NHWC b32 (the transposes' cost), tests.
# Packed with MORE_BUILDS="r1=<first build>" scripts/device_pack.sh build-dev; run as OUT=... bash .carry/ab2.sh
source scripts/device_run.sh none
for v in r1 new; do
  say "nchw b32 $v"; run_build $v --suite resnet50 --suite mobilenet_v2 --batch 32 --dtype fp32 --layout nchw --check --json "$OUT/ab2_b32_$v.json" 2>&1 | grep -E "^(resnet50|mobilenet_v2) +32|passed"
done
say "nhwc b32 new"; run_build new --suite resnet50 --batch 32 --dtype fp32 --layout nhwc --json "$OUT/ab2_nhwc_b32_new.json" 2>&1 | grep -E "^resnet50 +32"
for v in r1 new; do
  say "nchw b1 $v"; run_build $v --suite resnet50 --suite mobilenet_v2 --suite rdna1_matrix --suite vgg16 --batch 1 --dtype fp32 --layout nchw --check --json "$OUT/ab2_b1_$v.json" 2>&1 | grep -E "^[a-z0-9_]+ +1 fp32|passed"
done
tests_validated tests_ab2.log 150 '*IgemmTiles*:*SplitK*:All/Edges*__implicit_gemm_nhwc:All/Edges*__auto'
(cd "$OUT" && tar czf results-ab2.tgz *.json && rm -f *.json)
