# Session 56, call 3: call 2 (../pairs/) found the element transpose 1.5x slower with the gather's
# code in its loop (now a loop of its own) and 64-row pair blocks no faster than session 55's
# element path (32-row ones 1.2x).  Now the gather and the pairs path load ZB batch items before
# storing the first (VKCONV_TRANSPOSE_BATCH).  layers.csv per pass: old (HEAD b1ae11e), new
# (32-row pairs, ZB 2), ZB 1 / 4 / 8, 64-row pairs, both changes off, and fp32 old and new; then fp16 and bf16 NCHW
# ResNet-50 at b32 and b1 (the downsamples at b1 also with VKCONV_SLICEDK=0 and old), VGG-16 and RetinaNet at b32, and cuDNN on the same in the same call;
# the tests with the validation layer.  Every row checked.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz .carry/old/bin/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
L=docs/results/h200_s56/nchw_gather/layers.csv
tests_validated tests.log 60 '*CoopmatNhwc*:NhwcGather*'
lay() { local v=$1 name=$2; shift 2; RUN_TIMEOUT=30 bench_checked $v fp16_layers_$name --shapes $L --batch 32 --dtype fp16 --layout nchw --passes; }
lay old old
lay new new
VKCONV_TRANSPOSE_BATCH=1 lay new zb1
VKCONV_TRANSPOSE_BATCH=4 lay new zb4
VKCONV_TRANSPOSE_BATCH=8 lay new zb8
VKCONV_TRANSPOSE_PAIR_ROWS=64 lay new r64
VKCONV_NCHW_SUBSAMPLE=0 VKCONV_TRANSPOSE_PAIRS=0 lay new off
RUN_TIMEOUT=40 bench_checked old fp32_layers_old --shapes $L --batch 32 --dtype fp32 --layout nchw --passes
RUN_TIMEOUT=40 bench_checked new fp32_layers --shapes $L --batch 32 --dtype fp32 --layout nchw --passes
# b1: the gathered 14x14 downsample went to slicedk_coopmat (call 2: 12.1 -> 14.8 us); the same
# layers with the general kernel behind the gather.
head -4 $L > /tmp/ds.csv
RUN_TIMEOUT=30 bench_checked new fp16_ds_b1 --shapes /tmp/ds.csv --batch 1 --dtype fp16 --layout nchw
VKCONV_SLICEDK=0 RUN_TIMEOUT=30 bench_checked new fp16_ds_b1_nosk --shapes /tmp/ds.csv --batch 1 --dtype fp16 --layout nchw
RUN_TIMEOUT=30 bench_checked old fp16_ds_b1_old --shapes /tmp/ds.csv --batch 1 --dtype fp16 --layout nchw
for dt in fp16 bf16; do
  RUN_TIMEOUT=50 bench_checked new ${dt}_nchw_b32 --suite resnet50 --batch 32 --dtype $dt --layout nchw
  RUN_TIMEOUT=30 bench_checked new ${dt}_nchw_b1 --suite resnet50 --batch 1 --dtype $dt --layout nchw
  RUN_TIMEOUT=70 bench_checked new ${dt}_nchw_b32_big --suite vgg16 --suite retinanet_head --batch 32 --dtype $dt --layout nchw
done
say cudnn
LEFT=$(( 430 - ($(date +%s) - T0) ))
timeout $LEFT python3 bench/torch_baseline.py --suite resnet50 --config fp16_nchw --config bf16_nchw --batch 32 --batch 1 --json "$OUT/cudnn_nchw.json" > "$OUT/cudnn_nchw.txt" 2> "$OUT/cudnn_nchw.err"
echo "exit $?"
LEFT=$(( 540 - ($(date +%s) - T0) ))
timeout $LEFT python3 bench/torch_baseline.py --suite vgg16 --suite retinanet_head --config fp16_nchw --config bf16_nchw --batch 32 --json "$OUT/cudnn_nchw_b32.json" > "$OUT/cudnn_nchw_b32.txt" 2> "$OUT/cudnn_nchw_b32.err"
echo "exit $?"
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.err *.xz 2>/dev/null; rm -f *.json *.txt *.err *.xz; ls -la | head)
