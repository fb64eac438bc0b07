# Session 17, call 3: the router with winograd on the matrix units for fp16 (F(4x4)/F(2x2), M in
# fp16, the fitted transform costs) against the build before the session (89527c8): fp16 NHWC old
# then new, b32 on resnet50/vgg16/mobilenet_v2/retinanet_head, b1 on every suite; fp32 NCHW b32
# VGG-16 and RetinaNet old/new (the new F(4x4) points); cuDNN fp16 NHWC on the same batches, same
# call.  Every row --check'ed.  Packed with OLD_BUILD=<89527c8 build> scripts/device_pack.sh build-dev.
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
tests_validated tests.log 120 'winograd*:Winograd*:coopmat/CoopmatShapes.*'
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
for v in old new; do
  RUN_TIMEOUT=120 bench_checked $v fp16_b32_$v $B32 --batch 32 --dtype fp16 --layout nhwc
  RUN_TIMEOUT=120 bench_checked $v fp16_b1_$v $ALL --batch 1 --dtype fp16 --layout nhwc
done
for v in old new; do
  RUN_TIMEOUT=60 bench_checked $v fp32_b32_$v --suite vgg16 --suite retinanet_head --batch 32 --dtype fp32 --layout nchw
done
say cudnn
timeout 150 python3 bench/torch_baseline.py $ALL --config fp16_nhwc --batch 1 --batch 32 --json "$OUT/cudnn.json" > "$OUT/cudnn.txt" 2> "$OUT/cudnn.err"
echo "exit $?"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
