# Session 30, call 3: implicit_gemm_coopmat's accumulators stored as fp16 matrices straight to an
# NHWC output (VKCONV_COOPMAT_DIRECT_OUT=1; the staged epilogue otherwise), fp16 NHWC, one binary:
# off / on / off at b32 (ResNet-50, VGG-16, MobileNetV2, RetinaNet) and on / off at b1 (every
# suite); the phase trace with it on; its tests and the trace test with validation; and whether
# NVIDIA's driver gives the pipelines' internal representations (--isa).  Every row checked.
T0=$(date +%s)
for f in .carry/bin/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
say "isa probe"
timeout 60 $B --shader-stats --algo implicit_gemm_coopmat --tile 128x128x16/2x4 --isa $OUT/isa > $OUT/isa_probe.txt 2>&1; echo "exit $?"
ls -la $OUT/isa | head; du -sh $OUT/isa
tests_validated tests_trace.log 60 'CoopmatTrace*'
VKCONV_COOPMAT_DIRECT_OUT=1 tests_validated tests_direct.log 120 'coopmat/CoopmatTiles*:coopmat/CoopmatShapes*:coopmat_wn32*'
C32="--dtype fp16 --layout nhwc --batch 32 $B32 --warmup-ms 100"
C1="--dtype fp16 --layout nhwc --batch 1 --warmup-ms 100"
RUN_TIMEOUT=100 bench_checked new b32_off $C32
VKCONV_COOPMAT_DIRECT_OUT=1 RUN_TIMEOUT=100 bench_checked new b32_on $C32
RUN_TIMEOUT=100 bench_checked new b32_off2 $C32
VKCONV_COOPMAT_DIRECT_OUT=1 RUN_TIMEOUT=60 bench_checked new b1_on $C1
RUN_TIMEOUT=60 bench_checked new b1_off $C1
VKCONV_COOPMAT_DIRECT_OUT=1 RUN_TIMEOUT=60 bench_checked new traced_on --shapes bench/cases/s30_trace.csv --dtype fp16 --layout nhwc \
  --algo implicit_gemm_coopmat --warmup-ms 100 --trace $OUT/tr
timeout 100 python3 bench/coopmat_trace.py $OUT/tr/*.vktrace --json $OUT/trace_on_summary.json > $OUT/trace_on_summary.txt 2>&1
grep -E "vktrace|shares" $OUT/trace_on_summary.txt
rm -rf $OUT/tr
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar cJf isa.tar.xz isa; rm -rf isa; tar czf results.tgz *.json *.txt *.log && rm -f *.json *.txt *.log; ls -la)
