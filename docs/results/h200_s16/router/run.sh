# Session 16, call 3: the router with the two 16-subgroup tiles (192x128x64/4x4s1 at 0.99,
# 256x64x64/4x4s1 at 0.68) and the interleaved staging buffers, against the build before the
# session (6140fb8), fp16 NHWC: b32 on resnet50/vgg16/mobilenet_v2/retinanet_head, b1 on every
# suite, old then new, every row --check'ed; cuDNN fp16 NHWC on the same batches, same call.
# Packed with OLD_BUILD=<6140fb8 build> scripts/device_pack.sh build-dev; run as OUT=... bash .carry/run.sh
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
tests_validated tests.log 100 'coopmat/CoopmatTiles.*4x4s1*:CoopmatRouting.*'
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
for v in old new; do
  RUN_TIMEOUT=200 bench_checked $v fp16_b32_$v $B32 --batch 32 --dtype fp16 --layout nhwc
done
for v in old new; do
  RUN_TIMEOUT=120 bench_checked $v fp16_b1_$v $ALL --batch 1 --dtype fp16 --layout nhwc
done
say cudnn
timeout 150 python3 bench/torch_baseline.py $ALL --config fp16_nhwc --batch 1 --batch 32 --json "$OUT/cudnn_fp16.json" > "$OUT/cudnn_fp16.txt" 2> "$OUT/cudnn_fp16.err"
echo "exit $?"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
