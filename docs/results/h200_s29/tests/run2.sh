# Session 29, call 8: the tests call 7 did not reach in its 520 s (winograd, split-K, the scalar
# GEMM tiles, every suite shape, then the random sweep from case 83 on), same build, validation on.
T0=$(date +%s)
for f in .carry/bin/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
tests_validated tests_rest.log 280 'winograd*:splitk/*:All/IgemmTiles*:Suites/*'
tests_validated tests_sweep83.log 80 'Random/Sweep.*/83:Random/Sweep.*/84:Random/Sweep.*/85:Random/Sweep.*/86:Random/Sweep.*/87:Random/Sweep.*/88:Random/Sweep.*/89:Random/Sweep.*/90:Random/Sweep.*/91:Random/Sweep.*/92:Random/Sweep.*/93:Random/Sweep.*/94:Random/Sweep.*/95:Random/Sweep.*/96:Random/Sweep.*/97:Random/Sweep.*/98:Random/Sweep.*/99'
LEFT=$(( 560 - ($(date +%s) - T0) ))
[ $LEFT -gt 20 ] && tests_validated tests_sweep100.log $LEFT 'Random/Sweep.*-Random/Sweep.*/?:Random/Sweep.*/??'
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log && tar czf results.tgz *.xz && rm -f *.xz; ls)
