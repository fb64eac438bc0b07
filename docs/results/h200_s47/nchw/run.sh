# Session 47, call 3: measured selection (vkconv-bench --find) against the router at fp16 and bf16
# NCHW b1 on every layer of the six suites (coopmat_nhwc's variants: each matrix kernel behind the
# transposes), in one call: per dtype the router, then --find per suite (every candidate timed);
# the routers again as time allows; every row --check'ed.  The H200's find database comes back too.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
left() { local l=$(( $1 - ($(date +%s) - T0) )); echo $(( l < $2 ? l : $2 )); }
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
STOP=(0 270 540)
i=0
for dt in fp16 bf16; do
  i=$((i + 1))
  P="--batch 1 --dtype $dt --layout nchw"
  L=$(left $(( STOP[i] - 150 )) 100); [ $L -gt 30 ] && RUN_TIMEOUT=$L bench_checked new router_${dt}_1 $ALL $P
  for s in resnet50 vgg16 mobilenet_v2 retinanet_head sd_vae_decoder rdna1_matrix; do
    L=$(left ${STOP[i]} 80); [ $L -gt 15 ] && RUN_TIMEOUT=$L bench_checked new find_${dt}_$s --suite $s $P --find
  done
done
for dt in fp16 bf16; do
  L=$(left 580 40); [ $L -gt 25 ] && RUN_TIMEOUT=$L bench_checked new router_${dt}_2 $ALL --batch 1 --dtype $dt --layout nchw
done
cp /tmp/vkconv-cache-new/find-*.txt "$OUT/" 2>/dev/null
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.err *.xz find-*.txt && rm -f *.json *.txt *.err *.xz; ls -la | head)
