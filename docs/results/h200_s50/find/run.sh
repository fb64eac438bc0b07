# Session 50, call 5: measured selection where it was never run, the b32 suites with the largest
# ratios the first-layer change leaves: ResNet-50 and MobileNetV2 fp16 NHWC b32, the router then
# --find (every algorithm's own configuration timed per layer), then --find-exhaustive on
# MobileNetV2 (every implicit_gemm_coopmat / halo_coopmat tile too) as time allows; every row
# checked; the H200's find database kept.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
left() { local l=$(( $1 - ($(date +%s) - T0) )); echo $(( l < $2 ? l : $2 )); }
Q="--batch 32 --dtype fp16 --layout nhwc"
for s in mobilenet_v2 resnet50; do
  RUN_TIMEOUT=60 bench_checked new router_$s --suite $s $Q
  L=$(left 330 150); [ $L -gt 30 ] && RUN_TIMEOUT=$L bench_checked new find_$s --suite $s $Q --find
done
L=$(left 560 200); [ $L -gt 30 ] && RUN_TIMEOUT=$L bench_checked new findx_mobilenet_v2 --suite mobilenet_v2 $Q --find-exhaustive
cp /tmp/vkconv-cache-new/find-*.txt "$OUT/" 2>/dev/null
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt find-*.txt && rm -f *.json *.txt find-*.txt; ls -la | head)
