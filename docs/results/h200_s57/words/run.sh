# Built from 46c5573 with odd_words.patch applied (the form that took odd P*Q too; not kept).
# Session 57, call 2: implicit_gemm_coopmat's NCHW outputs that 4 does not divide (7x7) and those
# of 16-subgroup tiles (14x14) in aligned 4-byte words of two pixels (NCHW_WORDS) against the
# element stores (VKCONV_NCHW_WORDS=0, same binary) and session 56's build (old, 61179ca), on the
# eleven b32 layers it changes (layers.csv) per pass, off / on alternating; then the fp16 and bf16
# NCHW b32 ResNet-50 + MobileNetV2 suites on and off, cuDNN in the same call; the output tests
# with the validation layer.  Every row checked.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz .carry/old/bin/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
L=docs/results/h200_s57/words/layers.csv
tests_validated tests.log 90 'coopmat/CoopmatShapes.*nchw_*:coopmat/CoopmatShapes.*layout_*:coopmat_out_words/*:coopmat_runs4/*'
lay() { local v=$1 name=$2 dt=$3; RUN_TIMEOUT=40 bench_checked $v ${dt}_layers_$name --shapes $L --batch 32 --dtype $dt --layout nchw --passes; }
VKCONV_NCHW_WORDS=0 lay new off1 fp16
lay new on1 fp16
lay old old fp16
VKCONV_NCHW_WORDS=0 lay new off2 fp16
lay new on2 fp16
VKCONV_NCHW_WORDS=0 lay new off bf16
lay new on bf16
for dt in fp16 bf16; do
  RUN_TIMEOUT=80 bench_checked new ${dt}_nchw_b32_on --suite resnet50 --suite mobilenet_v2 --batch 32 --dtype $dt --layout nchw --passes
  VKCONV_NCHW_WORDS=0 RUN_TIMEOUT=60 bench_checked new ${dt}_nchw_b32_off --suite resnet50 --suite mobilenet_v2 --batch 32 --dtype $dt --layout nchw --passes
done
say cudnn
LEFT=$(( 540 - ($(date +%s) - T0) ))
timeout $LEFT python3 bench/torch_baseline.py --suite resnet50 --suite mobilenet_v2 --config fp16_nchw --config bf16_nchw --batch 32 --json "$OUT/cudnn_nchw_b32.json" > "$OUT/cudnn_nchw_b32.txt" 2> "$OUT/cudnn_nchw_b32.err"
echo "exit $?"
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.err *.xz 2>/dev/null; rm -f *.json *.txt *.err *.xz; ls -la | head)
