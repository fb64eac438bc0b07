# Session 31, call 6: the tests of every kernel lean load addressing reaches (the matrix, halo,
# winograd and trace tests; implicit_gemm_coopmat also runs winograd's GEMMs and coopmat_nhwc's
# layers) on real cooperative matrices, validation layer on; then the random sweep (the router's
# choices, every algorithm) in the time left.  The host code's only other change is the compile
# lab's pipeline-cache capture, which tests/compile_lab_pipeline_binaries covers on lavapipe.
T0=$(date +%s)
for f in .carry/bin/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
tests_validated tests_coopmat.log 300 '*coopmat*:*Coopmat*:winograd*:Winograd*'
LEFT=$(( 560 - ($(date +%s) - T0) ))
[ $LEFT -gt 20 ] && tests_validated tests_sweep.log $LEFT 'Random/Sweep.*'
grep -cE '^\[       OK' "$OUT/tests_coopmat.log" "$OUT/tests_sweep.log"; grep -E '^\[  FAILED|Segmentation|Validation' "$OUT"/tests_*.log | head
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log && tar czf results.tgz *.xz && rm -f *.xz; ls)
