# Session 61, call 1: one build (its JSON records the revision) through the router on the six
# 16-bit columns that fit one call: fp16 and bf16 NHWC at b1 (all six suites) and b32 (the four
# suites the anchors time at 32), fp16 and bf16 NCHW at b1; then cuDNN 9.19 on the same rows in
# the same call.  Every vkconv row checked against float64.  Before that, session 60's thread
# changes (parallel pipeline builds in the registry) on the NVIDIA driver with the validation
# layer.  Call 2 (../cols_b32_fp32/) has the NCHW b32 and fp32 columns.
T0=$(date +%s)
source scripts/device_run.sh info > /dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
pack() { (cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log 2>/dev/null); }
tests_validated tests.log 60 'ThreadsTest.*:PipelineCache*:ContextTest.*:WinogradPlan.*'
pack
for dt in fp16 bf16; do
  RUN_TIMEOUT=100 bench_checked new ${dt}_nhwc_b32 $B32 --batch 32 --dtype $dt --layout nhwc; pack
  RUN_TIMEOUT=80 bench_checked new ${dt}_nhwc_b1 --batch 1 --dtype $dt --layout nhwc; pack
  RUN_TIMEOUT=80 bench_checked new ${dt}_nchw_b1 --batch 1 --dtype $dt --layout nchw; pack
done
say cudnn
LEFT=$(( 500 - ($(date +%s) - T0) ))
timeout $LEFT python3 bench/torch_baseline.py --config fp16_nhwc --config bf16_nhwc --batch 1 --batch 32 --json "$OUT/cudnn_nhwc.json" > "$OUT/cudnn_nhwc.txt" 2> "$OUT/cudnn_nhwc.err"
echo "exit $?"
LEFT=$(( 570 - ($(date +%s) - T0) ))
timeout $LEFT python3 bench/torch_baseline.py --config fp16_nchw --config bf16_nchw --batch 1 --json "$OUT/cudnn_nchw_b1.json" > "$OUT/cudnn_nchw_b1.txt" 2> "$OUT/cudnn_nchw_b1.err"
echo "exit $?"
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && xz -9 -f tests.log; shopt -s nullglob; tar czf results.tgz *.json *.txt *.err *.xz *.csv && rm -f *.json *.txt *.err *.xz *.log *.csv; ls -la | head)
