# Session 33, call 5 (fused.patch, not kept): the fp16 scratch with a fused bias and ReLU / ReLU6
# (perf-notes 94: the bias added as a matrix of identical rows loaded with stride 0, the activation
# on the fp16 words):
#  1. the tests of the four kernels on shapes with a bias and ReLU / ReLU6 (validation on; integer
#     data compares exactly, so a changed rounding would fail);
#  2. MobileNetV2 (bias + ReLU6) and ResNet-50 (bias + ReLU) fp16 NHWC b32, the fp32 scratch
#     (VKCONV_COOPMAT_EPI16=0) against the fp16 one, every row checked.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
tests_validated tests_fused.log 100 '*Pointwise*bias*:coopmat/CoopmatShapes.*bias*:coopmat/CoopmatShapes.*c48*:coopmat/CoopmatShapes.*grouped4*:coopmat/HaloCoopmatTiles.*bias*:coopmat/FewChannelsCoopmatTiles.*bias*'
for e in 0 1; do
  VKCONV_COOPMAT_EPI16=$e RUN_TIMEOUT=35 bench_checked new mnv2_relu6_e$e --suite mobilenet_v2 --batch 32 --dtype fp16 --layout nhwc --epilogue bias_relu6
  VKCONV_COOPMAT_EPI16=$e RUN_TIMEOUT=35 bench_checked new rn50_relu_e$e --suite resnet50 --batch 32 --dtype fp16 --layout nhwc --epilogue bias_relu
done
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log && tar czf results.tgz *.json *.txt *.xz && rm -f *.json *.txt *.xz; ls -la)
