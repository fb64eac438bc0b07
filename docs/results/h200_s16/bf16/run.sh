# Session 16, call 4: as call 3 (router/) for bf16 NHWC (native bf16 cooperative matrices): the
# build before the session (6140fb8) then this one, b32 on resnet50/vgg16/mobilenet_v2/retinanet_head,
# b1 on every suite, every row --check'ed; cuDNN bf16 NHWC on the same batches, same call.  First
# every cooperative-matrix test (fp16 and bf16, every tile, split-K, routing) with the validation layer.
# Packed with OLD_BUILD=<6140fb8 build> scripts/device_pack.sh build-dev; run as OUT=... bash .carry/run.sh
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
tests_validated tests.log 200 '*oopmat*'
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
for v in old new; do
  RUN_TIMEOUT=200 bench_checked $v bf16_b32_$v $B32 --batch 32 --dtype bf16 --layout nhwc
done
for v in old new; do
  RUN_TIMEOUT=120 bench_checked $v bf16_b1_$v $ALL --batch 1 --dtype bf16 --layout nhwc
done
say cudnn
timeout 150 python3 bench/torch_baseline.py $ALL --config bf16_nhwc --batch 1 --batch 32 --json "$OUT/cudnn_bf16.json" > "$OUT/cudnn_bf16.txt" 2> "$OUT/cudnn_bf16.err"
echo "exit $?"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
