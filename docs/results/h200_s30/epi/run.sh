# Session 30, call 4: the trace with the epilogue's rounds split (scratch in / stores issued / the
# round's closing barrier), and two scratch blocks per subgroup that drop that barrier
# (VKCONV_COOPMAT_EPI_DB=1), fp16 NHWC, one binary: traces off / on; the suites off / on / off at b32
# and on / off at b1; the coopmat tests with it on and the trace test (validation layer on).
T0=$(date +%s)
for f in .carry/bin/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
tests_validated tests_trace.log 60 'CoopmatTrace*'
VKCONV_COOPMAT_EPI_DB=1 tests_validated tests_epi2.log 120 'coopmat/CoopmatTiles*:coopmat/CoopmatShapes*:coopmat_wn32*:CoopmatTrace*'
T="--shapes bench/cases/s30_trace.csv --dtype fp16 --layout nhwc --algo implicit_gemm_coopmat --warmup-ms 100"
RUN_TIMEOUT=60 bench_checked new traced_off $T --trace $OUT/tr_off
VKCONV_COOPMAT_EPI_DB=1 RUN_TIMEOUT=60 bench_checked new traced_on $T --trace $OUT/tr_on
timeout 100 python3 bench/coopmat_trace.py $OUT/tr_off/*.vktrace --json $OUT/trace_off.json > $OUT/trace_off.txt 2>&1
timeout 100 python3 bench/coopmat_trace.py $OUT/tr_on/*.vktrace --json $OUT/trace_on.json > $OUT/trace_on.txt 2>&1
grep -E "vktrace|shares|epilogue:" $OUT/trace_off.txt $OUT/trace_on.txt | sed 's|/root/out/||'
rm -rf $OUT/tr_off $OUT/tr_on
C32="--dtype fp16 --layout nhwc --batch 32 $B32 --warmup-ms 100"
C1="--dtype fp16 --layout nhwc --batch 1 --warmup-ms 100"
RUN_TIMEOUT=100 bench_checked new b32_off $C32
VKCONV_COOPMAT_EPI_DB=1 RUN_TIMEOUT=100 bench_checked new b32_on $C32
RUN_TIMEOUT=100 bench_checked new b32_off2 $C32
VKCONV_COOPMAT_EPI_DB=1 RUN_TIMEOUT=60 bench_checked new b1_on $C1
RUN_TIMEOUT=60 bench_checked new b1_off $C1
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.log && rm -f *.json *.txt *.log; ls -la)
