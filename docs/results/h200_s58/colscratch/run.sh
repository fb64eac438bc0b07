# Session 58, call 1: implicit_gemm_coopmat's NCHW element loop (odd P*Q outputs, split-K
# partials): a lane's pixel offset worked out once per row instead of a division per element, and
# the fp32 scratch read column-major (VKCONV_NCHW_COL_SCRATCH, spec 130: a filter's 16 pixels in
# adjacent words, where row-major put them 16 words apart, 8-way bank conflicts).  old = 4933aaf
# (neither), new with VKCONV_NCHW_COL_SCRATCH=0 (the hoisted loop alone), new; per pass on
# layers.csv (7x7 outputs, split-K layers; 14x14 words layers as controls), fp16 b32 NCHW
# alternating twice, bf16 once; the fp16 NCHW b32 ResNet-50 + MobileNetV2 suites old / new and
# cuDNN; ResNet-50 NCHW b1 old / new (split layers); bf16 suites and cuDNN as time allows.
# First the NCHW-output and split-K tests with the validation layer.  Every row checked.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz .carry/old/bin/*.xz .carry/old/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
L=docs/results/h200_s58/colscratch/layers.csv
pack() { (cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.log *.err 2>/dev/null); }
left() { local l=$(( $1 - ($(date +%s) - T0) )); echo $(( l > 5 ? l : 5 )); }  # never 0: timeout 0 would not time out
tests_validated tests.log 60 'coopmat_out_words/*:coopmat_runs4/*:coopmat/CoopmatShapes.*nchw*:coopmat/CoopmatTiles.*nchw*:splitk/*'
pack
lay() { local v=$1 name=$2 dt=$3; RUN_TIMEOUT=30 bench_checked $v ${dt}_layers_$name --shapes $L --batch 32 --dtype $dt --layout nchw --passes; pack; }
for i in 1 2; do
  lay old old$i fp16
  VKCONV_NCHW_COL_SCRATCH=0 lay new hoist$i fp16
  lay new new$i fp16
done
lay old old bf16; VKCONV_NCHW_COL_SCRATCH=0 lay new hoist bf16; lay new new bf16
for v in old new; do
  RUN_TIMEOUT=70 bench_checked $v fp16_nchw_b32_$v --suite resnet50 --suite mobilenet_v2 --batch 32 --dtype fp16 --layout nchw; pack
done
say cudnn fp16
timeout $(left 420) python3 bench/torch_baseline.py --suite resnet50 --suite mobilenet_v2 --config fp16_nchw --batch 32 --json "$OUT/cudnn_fp16_nchw_b32.json" > "$OUT/cudnn_fp16_nchw_b32.txt" 2> "$OUT/cudnn_fp16_nchw_b32.err"
echo "exit $?"; pack
for v in old new; do
  RUN_TIMEOUT=$(( $(left 470) / 2 )) bench_checked $v fp16_nchw_b1_$v --suite resnet50 --batch 1 --dtype fp16 --layout nchw; pack
done
if [ $(left 540) -gt 60 ]; then
  RUN_TIMEOUT=$(left 520) bench_checked new bf16_nchw_b32_new --suite resnet50 --suite mobilenet_v2 --batch 32 --dtype bf16 --layout nchw; pack
  say cudnn bf16
  timeout $(left 575) python3 bench/torch_baseline.py --suite resnet50 --suite mobilenet_v2 --config bf16_nchw --batch 32 --json "$OUT/cudnn_bf16_nchw_b32.json" > "$OUT/cudnn_bf16_nchw_b32.txt" 2> "$OUT/cudnn_bf16_nchw_b32.err"
  echo "exit $?"; pack
fi
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && xz -9 -f tests.log; shopt -s nullglob; tar czf results.tgz *.json *.txt *.err *.xz 2>/dev/null; rm -f *.json *.txt *.err *.xz *.log; ls -la | head)
