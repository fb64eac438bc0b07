# Session 53, call 2: the README's fp16 NCHW and bf16 NCHW b32 columns with the NCHW
# pointwise_coopmat rule (call 1, ../pw/) and cuDNN in the same call: ResNet-50, VGG-16,
# MobileNetV2 and RetinaNet at b32, every row checked.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
for dt in fp16 bf16; do
  RUN_TIMEOUT=150 bench_checked new ${dt}_nchw_b32 $B32 --batch 32 --dtype $dt --layout nchw
done
say cudnn
LEFT=$(( 560 - ($(date +%s) - T0) ))
timeout $LEFT python3 bench/torch_baseline.py $B32 --config fp16_nchw --config bf16_nchw --batch 32 --json "$OUT/cudnn_nchw_b32.json" > "$OUT/cudnn_nchw_b32.txt" 2> "$OUT/cudnn_nchw_b32.err"
echo "exit $?"
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err 2>/dev/null; rm -f *.json *.txt *.err; ls -la | head)
