# Session 29, call 7: the whole test suite on the H200 with the final build (the matrix-unit paths
# on real cooperative matrices, 256x48/4x1 and the 16-value tails included), validation layer on.
T0=$(date +%s)
for f in .carry/bin/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
tests_validated tests_all.log 520 '*'
grep -cE '^\[       OK' "$OUT/tests_all.log"; grep -E '^\[  FAILED|Segmentation|Validation' "$OUT/tests_all.log" | head
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 tests_all.log && tar czf results.tgz *.xz *.json *.txt && rm -f *.xz *.json *.txt; ls)
