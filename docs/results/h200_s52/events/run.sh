# Session 52, call 1: is an event a cheaper dependency than a pipeline barrier on NVIDIA?
# The call-floor probe with every barrier form (VKCONV_PEAK_BARRIER_FORMS=1; new: set + wait on a
# fresh event per call, and set + wait + reset on one event), then MobileNetV2 and ResNet-50 b1
# fp16 NHWC with the layer runner's dependency between calls as the barrier and as the event
# (VKCONV_BENCH_EVENT_DEPENDENCY=1), alternating, every row checked.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
say peak
VKCONV_PEAK_BARRIER_FORMS=1 timeout 200 $B --peak > "$OUT/peak.txt" 2>&1; echo "peak exit $?"
grep -i "floor\|alone" "$OUT/peak.txt"
for i in 1 2; do
  for s in mobilenet_v2 resnet50; do
    RUN_TIMEOUT=60 bench_checked new barrier${i}_${s} --suite $s --batch 1 --dtype fp16 --layout nhwc
    VKCONV_BENCH_EVENT_DEPENDENCY=1 RUN_TIMEOUT=60 bench_checked new event${i}_${s} --suite $s --batch 1 --dtype fp16 --layout nhwc
  done
done
for f in "$OUT"/*.txt; do echo "== $f"; grep -A3 "Summary per suite" $f | tail -1; done
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err 2>/dev/null; rm -f *.json *.txt *.err; ls -la | head)
