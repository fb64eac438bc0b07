# Session 58, call 2: implicit_gemm_coopmat's NCHW output words (even P*Q the runs leave: the
# 14x14 layers of 16-subgroup tiles) share call 1's loop, a lane's image and plane offset worked
# out once per item row instead of a division by P*Q per word.  old = 9403123 (call 1's kept
# build: words with a division per word), new with VKCONV_NCHW_WORDS=0 (the hoisted element
# loop on those layers), new; per pass on layers.csv (four words layers, one 7x7 control),
# fp16 b32 NCHW alternating twice, bf16 once; the fp16 and bf16 NCHW b32 ResNet-50 +
# MobileNetV2 suites old / new and cuDNN (the README's cells).  First the tests call 1's 60 s
# did not reach (output words, runs of 4, split-K) with the validation layer.  Every row checked.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz .carry/old/bin/*.xz .carry/old/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
L=docs/results/h200_s58/words_hoist/layers.csv
pack() { (cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.log *.err 2>/dev/null); }
left() { local l=$(( $1 - ($(date +%s) - T0) )); echo $(( l > 5 ? l : 5 )); }  # never 0: timeout 0 would not time out
tests_validated tests.log 100 'coopmat_out_words/*:coopmat_runs4/*:splitk/*:coopmat/CoopmatShapes.*nchw_out*'
pack
lay() { local v=$1 name=$2 dt=$3; RUN_TIMEOUT=30 bench_checked $v ${dt}_layers_$name --shapes $L --batch 32 --dtype $dt --layout nchw --passes; pack; }
for i in 1 2; do
  lay old old$i fp16
  VKCONV_NCHW_WORDS=0 lay new elem$i fp16
  lay new new$i fp16
done
lay old old bf16; VKCONV_NCHW_WORDS=0 lay new elem bf16; lay new new bf16
for dt in fp16 bf16; do
  for v in old new; do
    RUN_TIMEOUT=70 bench_checked $v ${dt}_nchw_b32_$v --suite resnet50 --suite mobilenet_v2 --batch 32 --dtype $dt --layout nchw; pack
  done
done
say cudnn
timeout $(left 560) python3 bench/torch_baseline.py --suite resnet50 --suite mobilenet_v2 --config fp16_nchw --config bf16_nchw --batch 32 --json "$OUT/cudnn_nchw_b32.json" > "$OUT/cudnn_nchw_b32.txt" 2> "$OUT/cudnn_nchw_b32.err"
echo "exit $?"
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && xz -9 -f tests.log; shopt -s nullglob; tar czf results.tgz *.json *.txt *.err *.xz 2>/dev/null; rm -f *.json *.txt *.err *.xz *.log; ls -la | head)
