# Session 33, call 4: the final build's tests on real cooperative matrices, validation layer on:
# every matrix-kernel, halo, few-channel, pointwise, winograd and coopmat_nhwc test (the fp16
# scratch is in four of them, the small-layer routing in the router's "auto" rows), then the random
# sweep (the router's choices, every algorithm) in the time left.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
tests_validated tests_coopmat.log 280 '*coopmat*:*Coopmat*:winograd*:Winograd*'
LEFT=$(( 500 - ($(date +%s) - T0) ))
[ $LEFT -gt 20 ] && tests_validated tests_sweep.log $LEFT 'Random/Sweep.*'
grep -cE '^\[       OK' "$OUT"/tests_*.log; grep -E '^\[  FAILED|Segmentation|Validation Error' "$OUT"/tests_*.log | head
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log && tar czf results.tgz *.xz && rm -f *.xz; ls)
