# Built with block_shape.patch applied (VKCONV_TRANSPOSE_PAIR_COLS is not in main: the patch was not kept).
# Session 57, call 1: the 16-bit word transpose's block shape (layout_transpose_pairs_*: 32
# channels x 64 pixels, session 56's; 64 x 32 and 128 x 16 with VKCONV_TRANSPOSE_PAIR_COLS=32 /
# 16, the same 4 KiB with 128- and 256-byte NHWC runs per pixel where the default writes 64) on
# session 56's six ResNet-50 layers per pass (--passes), old (HEAD 61179ca, the shipped shaders of
# session 56) and new alternating; then fp16 NCHW and NHWC b32 ResNet-50 and MobileNetV2 per pass,
# the NHWC ones with cuDNN in the same call (where the NCHW columns' time goes beside NHWC's); the
# transpose tests at each block shape with the validation layer.  Every row checked.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz .carry/old/bin/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
L=docs/results/h200_s56/nchw_gather/layers.csv
tests_validated tests.log 60 '*CoopmatNhwc*:NhwcGather*'
VKCONV_TRANSPOSE_PAIR_COLS=32 tests_validated tests_c32.log 40 'NhwcGather*:*CoopmatNhwc*pairs*'
VKCONV_TRANSPOSE_PAIR_COLS=16 tests_validated tests_c16.log 40 'NhwcGather*:*CoopmatNhwc*pairs*'
lay() { local v=$1 name=$2; shift 2; RUN_TIMEOUT=40 bench_checked $v fp16_layers_$name --shapes $L --batch 32 --dtype fp16 --layout nchw --passes; }
lay old old1
lay new new1
VKCONV_TRANSPOSE_PAIR_COLS=32 lay new c32_1
VKCONV_TRANSPOSE_PAIR_COLS=16 lay new c16_1
VKCONV_TRANSPOSE_PAIR_COLS=16 lay new c16_2
VKCONV_TRANSPOSE_PAIR_COLS=32 lay new c32_2
lay new new2
lay old old2
for v in new old; do
  RUN_TIMEOUT=40 bench_checked $v bf16_layers_$v --shapes $L --batch 32 --dtype bf16 --layout nchw --passes
done
VKCONV_TRANSPOSE_PAIR_COLS=32 RUN_TIMEOUT=40 bench_checked new bf16_layers_c32 --shapes $L --batch 32 --dtype bf16 --layout nchw --passes
VKCONV_TRANSPOSE_PAIR_COLS=16 RUN_TIMEOUT=40 bench_checked new bf16_layers_c16 --shapes $L --batch 32 --dtype bf16 --layout nchw --passes
RUN_TIMEOUT=150 bench_checked new fp16_nchw_b32 --suite resnet50 --suite mobilenet_v2 --batch 32 --dtype fp16 --layout nchw --passes
VKCONV_TRANSPOSE_PAIR_COLS=32 RUN_TIMEOUT=60 bench_checked new fp16_nchw_b32_c32 --suite resnet50 --suite mobilenet_v2 --batch 32 --dtype fp16 --layout nchw --passes
VKCONV_TRANSPOSE_PAIR_COLS=16 RUN_TIMEOUT=60 bench_checked new fp16_nchw_b32_c16 --suite resnet50 --suite mobilenet_v2 --batch 32 --dtype fp16 --layout nchw --passes
RUN_TIMEOUT=100 bench_checked new fp16_nhwc_b32 --suite resnet50 --suite mobilenet_v2 --batch 32 --dtype fp16 --layout nhwc --passes
say cudnn
LEFT=$(( 540 - ($(date +%s) - T0) ))
timeout $LEFT python3 bench/torch_baseline.py --suite resnet50 --suite mobilenet_v2 --config fp16_nchw --config fp16_nhwc --batch 32 --json "$OUT/cudnn_b32.json" > "$OUT/cudnn_b32.txt" 2> "$OUT/cudnn_b32.err"
echo "exit $?"
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.err *.xz 2>/dev/null; rm -f *.json *.txt *.err *.xz; ls -la | head)
