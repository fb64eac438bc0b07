# Session 56, call 2: call 1 (../nchw_gather/) put the PAIRS path in the element transpose's shader
# as a specialization, and with it every transpose ran 2-3.5x slower than session 55's (the
# element path too, with PAIRS off): layout_transpose_pairs_* is now a build of its own.  Here
# session 55's build (old, HEAD b1ae11e) against this one: layers.csv per pass (--passes) on old,
# new, new with 32-row pair blocks (VKCONV_TRANSPOSE_PAIR_ROWS=32) and new with both changes off
# (VKCONV_NCHW_SUBSAMPLE=0 VKCONV_TRANSPOSE_PAIRS=0: should match old); fp16 and bf16 NCHW
# ResNet-50 at b32 and b1, fp16 NCHW VGG-16 and RetinaNet at b32, old and new; cuDNN on the same
# in the same call; the tests with the validation layer.  Every row checked.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz .carry/old/bin/*.xz .carry/old/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
D=docs/results/h200_s56/nchw_gather
tests_validated tests.log 60 '*CoopmatNhwc*:NhwcGather*'
RUN_TIMEOUT=30 bench_checked old fp16_layers_old --shapes $D/layers.csv --batch 32 --dtype fp16 --layout nchw --passes
RUN_TIMEOUT=30 bench_checked new fp16_layers --shapes $D/layers.csv --batch 32 --dtype fp16 --layout nchw --passes
VKCONV_TRANSPOSE_PAIR_ROWS=32 RUN_TIMEOUT=30 bench_checked new fp16_layers_r32 --shapes $D/layers.csv --batch 32 --dtype fp16 --layout nchw --passes
VKCONV_NCHW_SUBSAMPLE=0 VKCONV_TRANSPOSE_PAIRS=0 RUN_TIMEOUT=30 bench_checked new fp16_layers_off --shapes $D/layers.csv --batch 32 --dtype fp16 --layout nchw --passes
for dt in fp16 bf16; do
  RUN_TIMEOUT=50 bench_checked new ${dt}_nchw_b32 --suite resnet50 --batch 32 --dtype $dt --layout nchw
  RUN_TIMEOUT=30 bench_checked new ${dt}_nchw_b1 --suite resnet50 --batch 1 --dtype $dt --layout nchw
done
RUN_TIMEOUT=50 bench_checked old fp16_nchw_b32_old --suite resnet50 --batch 32 --dtype fp16 --layout nchw
RUN_TIMEOUT=30 bench_checked old fp16_nchw_b1_old --suite resnet50 --batch 1 --dtype fp16 --layout nchw
for s in vgg16 retinanet_head; do
  RUN_TIMEOUT=60 bench_checked new fp16_nchw_b32_$s --suite $s --batch 32 --dtype fp16 --layout nchw
  RUN_TIMEOUT=60 bench_checked old fp16_nchw_b32_${s}_old --suite $s --batch 32 --dtype fp16 --layout nchw
done
say cudnn
LEFT=$(( 440 - ($(date +%s) - T0) ))
timeout $LEFT python3 bench/torch_baseline.py --suite resnet50 --config fp16_nchw --config bf16_nchw --batch 32 --batch 1 --json "$OUT/cudnn_nchw.json" > "$OUT/cudnn_nchw.txt" 2> "$OUT/cudnn_nchw.err"
echo "exit $?"
LEFT=$(( 530 - ($(date +%s) - T0) ))
timeout $LEFT python3 bench/torch_baseline.py --suite vgg16 --suite retinanet_head --config fp16_nchw --batch 32 --json "$OUT/cudnn_nchw_b32.json" > "$OUT/cudnn_nchw_b32.txt" 2> "$OUT/cudnn_nchw_b32.err"
echo "exit $?"
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.err *.xz 2>/dev/null; rm -f *.json *.txt *.err *.xz; ls -la | head)
