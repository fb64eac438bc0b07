# Session 30, call 2: implicit_gemm_coopmat's phase clocks (vkconv-bench --trace: the CM_TRACE
# build, shaders/include/coopmat_trace.glsl) on ten layers (bench/cases/s30_trace.csv), with the
# same rows untraced before and after to show what the clock reads cost; the summaries by
# bench/coopmat_trace.py; the trace test on real cooperative matrices (validation layer on).
T0=$(date +%s)
for f in .carry/bin/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
tests_validated tests_trace.log 60 'CoopmatTrace*'
S="--shapes bench/cases/s30_trace.csv --dtype fp16 --layout nhwc --algo implicit_gemm_coopmat --warmup-ms 100"
RUN_TIMEOUT=120 bench_checked new plain1 $S
RUN_TIMEOUT=150 bench_checked new traced $S --trace $OUT/tr
RUN_TIMEOUT=120 bench_checked new plain2 $S
# The big 3x3 layers on the 128x256x32/2x4s1 tile too (two barriers per 32-deep slice, loads two ahead).
RUN_TIMEOUT=60 bench_checked new traced_128x256 --shapes bench/cases/s30_trace.csv --dtype fp16 --layout nhwc \
  --algo implicit_gemm_coopmat --tile 128x256x32/2x4s1 --warmup-ms 100 --trace $OUT/tr256 --max-gflop 200
say "summaries"
timeout 200 python3 bench/coopmat_trace.py $OUT/tr/*.vktrace --json $OUT/trace_summary.json > $OUT/trace_summary.txt 2>&1
timeout 100 python3 bench/coopmat_trace.py $OUT/tr256/*.vktrace --json $OUT/trace256_summary.json > $OUT/trace256_summary.txt 2>&1
cat $OUT/trace_summary.txt $OUT/trace256_summary.txt
ls -la $OUT/tr $OUT/tr256 | awk '{print $5, $9}'
# Keep the small traces (b1 grids); the large ones are summarised above.
mkdir -p $OUT/keep; for f in $OUT/tr/resnet50__*.vktrace $OUT/tr/mobilenet_v2__features.12*.vktrace; do [ -f "$f" ] && cp "$f" $OUT/keep/; done
rm -rf $OUT/tr $OUT/tr256
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar cJf traces.tar.xz keep && rm -rf keep && tar czf results.tgz *.json *.txt *.log && rm -f *.json *.txt *.log; ls -la)
