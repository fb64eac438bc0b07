# Session 56, call 1: coopmat_nhwc / implicit_gemm_nhwc gather a strided 1x1 layer's pixels in the
# input transpose (VKCONV_NCHW_SUBSAMPLE), and the 16-bit transpose moves 32-bit words of two
# elements in 64 x 64 blocks (VKCONV_TRANSPOSE_PAIRS).  The tests with the validation layer; the
# layers of layers.csv with both off and on, per pass (--passes: the transposes timed alone); fp16
# and bf16 NCHW ResNet-50 at b32 and b1 and fp16 NCHW VGG-16 at b32 through the router, fp16 also
# with both off; fp32 NCHW on the downsamples; cuDNN on the same in the same call.  Every row checked.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
D=docs/results/h200_s56/nchw_gather
tests_validated tests.log 90 '*CoopmatNhwc*:NhwcGather*:*PackedFilter*'
for dt in fp16 bf16; do
  RUN_TIMEOUT=40 bench_checked new ${dt}_layers_b32 --shapes $D/layers.csv --batch 32 --dtype $dt --layout nchw --passes
  VKCONV_NCHW_SUBSAMPLE=0 VKCONV_TRANSPOSE_PAIRS=0 RUN_TIMEOUT=40 bench_checked new ${dt}_layers_b32_off --shapes $D/layers.csv --batch 32 --dtype $dt --layout nchw --passes
done
RUN_TIMEOUT=40 bench_checked new fp32_layers_b32 --shapes $D/layers.csv --batch 32 --dtype fp32 --layout nchw
VKCONV_NCHW_SUBSAMPLE=0 VKCONV_TRANSPOSE_PAIRS=0 RUN_TIMEOUT=40 bench_checked new fp32_layers_b32_off --shapes $D/layers.csv --batch 32 --dtype fp32 --layout nchw
for dt in fp16 bf16; do
  RUN_TIMEOUT=60 bench_checked new ${dt}_nchw_b32 --suite resnet50 --batch 32 --dtype $dt --layout nchw
  RUN_TIMEOUT=30 bench_checked new ${dt}_nchw_b1 --suite resnet50 --batch 1 --dtype $dt --layout nchw
done
VKCONV_NCHW_SUBSAMPLE=0 VKCONV_TRANSPOSE_PAIRS=0 RUN_TIMEOUT=60 bench_checked new fp16_nchw_b32_off --suite resnet50 --batch 32 --dtype fp16 --layout nchw
VKCONV_NCHW_SUBSAMPLE=0 VKCONV_TRANSPOSE_PAIRS=0 RUN_TIMEOUT=30 bench_checked new fp16_nchw_b1_off --suite resnet50 --batch 1 --dtype fp16 --layout nchw
RUN_TIMEOUT=70 bench_checked new fp16_nchw_b32_vgg --suite vgg16 --batch 32 --dtype fp16 --layout nchw
VKCONV_NCHW_SUBSAMPLE=0 VKCONV_TRANSPOSE_PAIRS=0 RUN_TIMEOUT=70 bench_checked new fp16_nchw_b32_vgg_off --suite vgg16 --batch 32 --dtype fp16 --layout nchw
say cudnn
LEFT=$(( 480 - ($(date +%s) - T0) ))
timeout $LEFT python3 bench/torch_baseline.py --suite resnet50 --config fp16_nchw --config bf16_nchw --batch 32 --batch 1 --json "$OUT/cudnn_nchw.json" > "$OUT/cudnn_nchw.txt" 2> "$OUT/cudnn_nchw.err"
echo "exit $?"
LEFT=$(( 540 - ($(date +%s) - T0) ))
timeout $LEFT python3 bench/torch_baseline.py --suite vgg16 --config fp16_nchw --batch 32 --json "$OUT/cudnn_nchw_vgg.json" > "$OUT/cudnn_nchw_vgg.txt" 2> "$OUT/cudnn_nchw_vgg.err"
echo "exit $?"
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.err *.xz 2>/dev/null; rm -f *.json *.txt *.err *.xz; ls -la | head)
