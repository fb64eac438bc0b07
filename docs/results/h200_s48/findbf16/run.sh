# Session 48, call 2: measured selection against the router where it was never run: bf16 NHWC b1
# on every suite (the router, then --find per suite), then, as time allows, VGG-16 and RetinaNet
# fp16 NHWC b32 (the router, then --find); every row --check'ed; the H200's find database kept.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
left() { local l=$(( $1 - ($(date +%s) - T0) )); echo $(( l < $2 ? l : $2 )); }
P="--batch 1 --dtype bf16 --layout nhwc"
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
RUN_TIMEOUT=100 bench_checked new router_bf16 $ALL $P
for s in resnet50 vgg16 mobilenet_v2 retinanet_head sd_vae_decoder rdna1_matrix; do
  L=$(left 380 100); [ $L -gt 20 ] && RUN_TIMEOUT=$L bench_checked new find_bf16_$s --suite $s $P --find
done
Q="--batch 32 --dtype fp16 --layout nhwc"
for s in vgg16 retinanet_head; do
  L=$(left 470 60); [ $L -gt 30 ] && RUN_TIMEOUT=$L bench_checked new router_b32_$s --suite $s $Q
  L=$(left 570 120); [ $L -gt 30 ] && RUN_TIMEOUT=$L bench_checked new find_b32_$s --suite $s $Q --find
done
cp /tmp/vkconv-cache-new/find-*.txt "$OUT/" 2>/dev/null
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err find-*.txt && rm -f *.json *.txt *.err find-*.txt; ls -la | head)
