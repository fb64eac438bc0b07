# Session 56, call 4: the shipped build (gathered 1x1 transposes, 32-row pair blocks, one batch
# item per workgroup: calls 1-3 in ../nchw_gather/, ../pairs/, ../batch/) through the router on
# the 16-bit NCHW columns the transposes move: b32 ResNet-50, MobileNetV2, VGG-16, RetinaNet; b1
# ResNet-50 and the SD-VAE decoder; fp16 and bf16; cuDNN on the same in the same call; the
# transpose tests with the validation layer.  Every row checked.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
tests_validated tests.log 40 '*CoopmatNhwc*:NhwcGather*'
for dt in fp16 bf16; do
  RUN_TIMEOUT=70 bench_checked new ${dt}_nchw_b32 --suite resnet50 --suite mobilenet_v2 --batch 32 --dtype $dt --layout nchw
  RUN_TIMEOUT=70 bench_checked new ${dt}_nchw_b32_big --suite vgg16 --suite retinanet_head --batch 32 --dtype $dt --layout nchw
  RUN_TIMEOUT=40 bench_checked new ${dt}_nchw_b1 --suite resnet50 --suite sd_vae_decoder --batch 1 --dtype $dt --layout nchw
done
say cudnn
LEFT=$(( 460 - ($(date +%s) - T0) ))
timeout $LEFT python3 bench/torch_baseline.py --suite resnet50 --suite mobilenet_v2 --suite vgg16 --suite retinanet_head --config fp16_nchw --config bf16_nchw --batch 32 --json "$OUT/cudnn_nchw_b32.json" > "$OUT/cudnn_nchw_b32.txt" 2> "$OUT/cudnn_nchw_b32.err"
echo "exit $?"
LEFT=$(( 520 - ($(date +%s) - T0) ))
timeout $LEFT python3 bench/torch_baseline.py --suite resnet50 --suite sd_vae_decoder --config fp16_nchw --config bf16_nchw --batch 1 --json "$OUT/cudnn_nchw_b1.json" > "$OUT/cudnn_nchw_b1.txt" 2> "$OUT/cudnn_nchw_b1.err"
echo "exit $?"
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.err *.xz 2>/dev/null; rm -f *.json *.txt *.err *.xz; ls -la | head)
