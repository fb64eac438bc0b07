# Session 30, call 9: the rest of the test suite with the final build (everything but the matrix,
# halo and winograd tests, which call 7 ran with the same shaders: 711 passed), validation layer on;
# the random sweep last, in the time left.
T0=$(date +%s)
for f in .carry/bin/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
tests_validated tests_rest.log 420 '*-*coopmat*:*Coopmat*:winograd*:Random/Sweep.*'
LEFT=$(( 560 - ($(date +%s) - T0) ))
[ $LEFT -gt 20 ] && tests_validated tests_sweep.log $LEFT 'Random/Sweep.*'
grep -cE '^\[       OK' "$OUT/tests_rest.log" "$OUT/tests_sweep.log"; grep -E '^\[  FAILED|Segmentation|Validation' "$OUT"/tests_*.log | head
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log && tar czf results.tgz *.xz && rm -f *.xz; ls)
