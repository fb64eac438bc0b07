# Session 16, call 9: 64-deep slices one slice ahead (128x128x64/2x4s1 now too; ahead8/) against the
# build of call 7 (final/, 72f317f code), fp16 NHWC b32 on resnet50/vgg16/mobilenet_v2/retinanet_head
# and b1 on every suite, old/new alternating twice for b1, every row --check'ed; then this build in
# bf16 and cuDNN fp16 and bf16 NHWC on the same batches, same call.
# Packed with OLD_BUILD=<72f317f build> scripts/device_pack.sh build-dev; run as OUT=... bash .carry/run.sh
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
for v in old new; do
  RUN_TIMEOUT=200 bench_checked $v fp16_b32_$v $B32 --batch 32 --dtype fp16 --layout nhwc
done
for v in old new old new; do i=$((${i:-0} + 1))
  RUN_TIMEOUT=120 bench_checked $v fp16_b1_${v}_$i $ALL --batch 1 --dtype fp16 --layout nhwc
done
RUN_TIMEOUT=200 bench_checked new bf16_b32_new $B32 --batch 32 --dtype bf16 --layout nhwc
RUN_TIMEOUT=120 bench_checked new bf16_b1_new $ALL --batch 1 --dtype bf16 --layout nhwc
say cudnn
timeout 200 python3 bench/torch_baseline.py $ALL --config fp16_nhwc --config bf16_nhwc --batch 1 --batch 32 --json "$OUT/cudnn.json" > "$OUT/cudnn.txt" 2> "$OUT/cudnn.err"
echo "exit $?"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
