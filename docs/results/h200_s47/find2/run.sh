# Session 47, call 2 (after the warm-up fix): measured selection (findAlgorithms, vkconv-bench --find) against the router
# on every layer of the six suites at fp16 NHWC b1, in one call: the router, then --find (each
# suite its own run, every candidate timed, the database beside the pipeline cache), then the
# router and --find again (now from the database: the same plans, a second sample) as time allows;
# every row --check'ed.  Then the Find tests with the validation layer, and the H200's find database.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
left() { local l=$(( $1 - ($(date +%s) - T0) )); echo $(( l < $2 ? l : $2 )); }
P="--batch 1 --dtype fp16 --layout nhwc"
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
RUN_TIMEOUT=100 bench_checked new router_1 $ALL $P
for s in resnet50 vgg16 mobilenet_v2 retinanet_head sd_vae_decoder rdna1_matrix; do
  L=$(left 440 100); [ $L -gt 20 ] && RUN_TIMEOUT=$L bench_checked new find_1_$s --suite $s $P --find
done
L=$(left 490 50); [ $L -gt 30 ] && RUN_TIMEOUT=$L bench_checked new router_2 $ALL $P
L=$(left 540 50); [ $L -gt 30 ] && RUN_TIMEOUT=$L bench_checked new find_2 $ALL $P --find
echo "elapsed $(( $(date +%s) - T0 )) s"
L=$(left 580 40); [ $L -gt 15 ] && tests_validated tests.log $L 'Find.*'
cp /tmp/vkconv-cache-new/find-*.txt "$OUT/" 2>/dev/null
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.err *.xz find-*.txt && rm -f *.json *.txt *.err *.xz; ls -la | head)
