# Session 53, call 4 (measurement only): where MobileNetV2's and ResNet-50's 16-bit NCHW b1 time
# goes pass by pass (`--passes`: each dispatch of a plan timed alone: coopmat_nhwc's transposes
# against its inner kernel), fp16 NCHW and NHWC b1 through the router, every row checked; the
# NHWC rows run the same inner kernels without the transposes.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
for l in nchw nhwc; do
  for s in mobilenet_v2 resnet50; do
    RUN_TIMEOUT=90 bench_checked new ${s}_fp16_${l}_b1 --suite $s --batch 1 --dtype fp16 --layout $l --passes
  done
done
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt 2>/dev/null; rm -f *.json *.txt; ls -la | head)
