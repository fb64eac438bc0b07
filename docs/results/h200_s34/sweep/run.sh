# Session 34, call 6: the final build's tests on the H200 (validation layer on): the random sweep
# (the router's choice and every accepting algorithm per case), then the new kernels' and the
# coopmat / halo / pointwise tests in the time left.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
tests_validated tests_sweep.log 420 'Random/Sweep.*'
LEFT=$(( 560 - ($(date +%s) - T0) ))
[ $LEFT -gt 20 ] && tests_validated tests_kernels.log $LEFT '*SlicedK*:*DepthwiseTiled*:*ElementPath*:*coopmat*:*Coopmat*'
grep -cE '^\[       OK' "$OUT"/tests_*.log; grep -E '^\[  FAILED|Segmentation|Validation Error' "$OUT"/tests_*.log | head
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log && tar czf results.tgz *.xz && rm -f *.xz; ls)
