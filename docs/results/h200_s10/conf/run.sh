# Confirmation: fp16 NHWC old/new after the NHWC tap-table rule; fp32 NCHW C=3 rows; IgemmTiles + Edges tests.
source scripts/device_run.sh none > /dev/null 2>&1
for v in old new; do
  say "fp16 nhwc b32+b1 $v"
  run_build $v --suite resnet50 --suite vgg16 --suite mobilenet_v2 --batch 32 --batch 1 --dtype fp16 --layout nhwc --check \
    --json "$OUT/conf_fp16_$v.json" 2>&1 | grep -E "^[a-z0-9_]+ +(1|32) fp16|passed"
done
tests_validated tests_conf.log 170 '*IgemmTiles*:All/Edges*__implicit_gemm:All/Edges*__implicit_gemm_nhwc:All/Edges*__auto'
(cd "$OUT" && tar czf results-conf.tgz conf_*.json && rm -f conf_*.json)
