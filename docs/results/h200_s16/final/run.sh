# Session 16, call 7: the session's router (192x128x64/4x4s1 at 1.00, 256x64x64/4x4s1 at 0.68,
# both one slice ahead) against the build before the session (6140fb8): fp16 NHWC old then new,
# bf16 NHWC new, b32 on resnet50/vgg16/mobilenet_v2/retinanet_head, b1 on every suite, every row
# --check'ed; cuDNN fp16 and bf16 NHWC on the same batches, same call (the README's 16-bit columns).
# Packed with OLD_BUILD=<6140fb8 build> scripts/device_pack.sh build-dev; run as OUT=... bash .carry/run.sh
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
tests_validated tests.log 60 'coopmat/CoopmatTiles.*4x4s1*:CoopmatRouting.*'
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
for v in old new; do
  RUN_TIMEOUT=200 bench_checked $v fp16_b32_$v $B32 --batch 32 --dtype fp16 --layout nhwc
  RUN_TIMEOUT=120 bench_checked $v fp16_b1_$v $ALL --batch 1 --dtype fp16 --layout nhwc
done
RUN_TIMEOUT=200 bench_checked new bf16_b32_new $B32 --batch 32 --dtype bf16 --layout nhwc
RUN_TIMEOUT=120 bench_checked new bf16_b1_new $ALL --batch 1 --dtype bf16 --layout nhwc
say cudnn
timeout 200 python3 bench/torch_baseline.py $ALL --config fp16_nhwc --config bf16_nhwc --batch 1 --batch 32 --json "$OUT/cudnn.json" > "$OUT/cudnn.txt" 2> "$OUT/cudnn.err"
echo "exit $?"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
