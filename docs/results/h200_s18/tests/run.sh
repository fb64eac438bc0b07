# Session 18, call 8: every cooperative-matrix test (names containing "coopmat": implicit_gemm_coopmat's
# shapes and tiles, few_channels_coopmat, halo_coopmat, winograd on the matrix units) and the routers'
# tests at HEAD with the validation layer on the H200.
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
tests_validated tests_coopmat.log 400 '*coopmat*:*Routing*:*Router*'
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.log && rm -f *.log; ls)
