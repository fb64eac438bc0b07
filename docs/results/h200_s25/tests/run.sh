# Session 25, call 5: the whole test binary on the device with the validation layer (HEAD f479e53:
# coopmat_nhwc with the final rule), real cooperative matrices at subgroup size 32.
for f in .carry/bin/vkconv-bench.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
tests_validated tests.log 540 '*'
grep -cE '^\[ +OK \]' "$OUT/tests.log"
(cd "$OUT" && gzip -9 tests.log; ls)
