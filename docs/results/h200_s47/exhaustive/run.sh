# Session 47, call 7: exhaustive find (FindOptions::exhaustive, vkconv-bench --find-exhaustive:
# every tile of implicit_gemm, implicit_gemm_coopmat and halo_coopmat as a candidate too) against
# find's default candidates and the router, in one call: VGG-16 and RetinaNet fp16 NHWC b1,
# ResNet-50 fp16 NHWC b32; every row --check'ed.  Then the Find tests with the validation layer.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
left() { local l=$(( $1 - ($(date +%s) - T0) )); echo $(( l < $2 ? l : $2 )); }
for cfg in "b1:--suite vgg16 --suite retinanet_head --batch 1" "b32:--suite resnet50 --batch 32"; do
  n=${cfg%%:*}; Q="${cfg#*:} --dtype fp16 --layout nhwc"
  L=$(left 380 80); [ $L -gt 20 ] && RUN_TIMEOUT=$L bench_checked new router_$n $Q
  L=$(left 380 80); [ $L -gt 20 ] && RUN_TIMEOUT=$L bench_checked new find_$n $Q --find-fresh
  L=$(left 380 150); [ $L -gt 20 ] && RUN_TIMEOUT=$L bench_checked new exhaustive_$n $Q --find-exhaustive
done
L=$(left 440 60); [ $L -gt 15 ] && tests_validated tests.log $L 'Find.*'
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.err *.xz && rm -f *.json *.txt *.err *.xz; ls -la | head)
