# Session 47, call 5: find's timing after its two fixes (the warm-up settling on the fastest
# candidate's time, >= 500 us per candidate and round): fp16 NCHW b1, every layer, the router then
# --find per suite (fresh), to compare find's time of each candidate with the benchmark's row;
# then, as time allows, ResNet-50 and MobileNetV2 fp16 NHWC b32, the router then --find; every
# row --check'ed.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
left() { local l=$(( $1 - ($(date +%s) - T0) )); echo $(( l < $2 ? l : $2 )); }
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
P="--batch 1 --dtype fp16 --layout nchw"
RUN_TIMEOUT=100 bench_checked new router_fp16_1 $ALL $P
for s in resnet50 vgg16 mobilenet_v2 retinanet_head sd_vae_decoder rdna1_matrix; do
  L=$(left 370 80); [ $L -gt 15 ] && RUN_TIMEOUT=$L bench_checked new find_fp16_$s --suite $s $P --find
done
Q="--suite resnet50 --suite mobilenet_v2 --batch 32 --dtype fp16 --layout nhwc"
L=$(left 440 60); [ $L -gt 30 ] && RUN_TIMEOUT=$L bench_checked new router_b32 $Q
L=$(left 570 120); [ $L -gt 30 ] && RUN_TIMEOUT=$L bench_checked new find_b32 $Q --find
cp /tmp/vkconv-cache-new/find-*.txt "$OUT/" 2>/dev/null
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err find-*.txt && rm -f *.json *.txt *.err find-*.txt; ls -la | head)
