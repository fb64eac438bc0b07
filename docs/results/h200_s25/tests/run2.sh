# Session 25, call 6: what call 5's 540 s did not reach, with CoopmatShapes' routing check fixed
# (it expected implicit_gemm_coopmat for NCHW activations; call 5's seven failures, every output
# correct): CoopmatShapes again, the coopmat winograd and split-K cases, and random sweep cases
# 30-99 (auto and every algorithm accepting each, coopmat_nhwc included), validation layer on.
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
F='coopmat/CoopmatShapes.*:winograd_coopmat/*:splitk/*'
for i in 3 4 5 6 7 8 9; do F="$F:Random/Sweep.AutoAndEveryAcceptingAlgorithm/$i?"; done
tests_validated tests2.log 480 "$F"
grep -cE '^\[ +OK \]' "$OUT/tests2.log"
(cd "$OUT" && gzip -9 tests2.log; ls)
