# Session 61, call 2 (the same build as call 1, ../cols16/): the 16-bit NCHW b32 columns (fp16 and
# bf16 over the four suites the anchors time at 32) and the fp32 NCHW columns (b1 over all six
# suites, b32 over the four), each with cuDNN 9.19 on the same rows in this call (fp32: TF32 off).
# Every vkconv row checked against float64.
T0=$(date +%s)
source scripts/device_run.sh none > /dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
pack() { (cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err 2>/dev/null); }
for dt in fp16 bf16; do
  RUN_TIMEOUT=110 bench_checked new ${dt}_nchw_b32 $B32 --batch 32 --dtype $dt --layout nchw; pack
done
RUN_TIMEOUT=70 bench_checked new fp32_nchw_b1 --batch 1 --dtype fp32 --layout nchw; pack
say cudnn 16-bit nchw b32
timeout 90 python3 bench/torch_baseline.py $B32 --config fp16_nchw --config bf16_nchw --batch 32 --json "$OUT/cudnn_nchw_b32.json" > "$OUT/cudnn_nchw_b32.txt" 2> "$OUT/cudnn_nchw_b32.err"
echo "exit $?"
say cudnn fp32 b1
timeout 60 python3 bench/torch_baseline.py --config fp32_nchw --batch 1 --json "$OUT/cudnn_fp32_b1.json" > "$OUT/cudnn_fp32_b1.txt" 2> "$OUT/cudnn_fp32_b1.err"
echo "exit $?"
pack
LEFT=$(( 500 - ($(date +%s) - T0) ))
RUN_TIMEOUT=$LEFT bench_checked new fp32_nchw_b32 $B32 --batch 32 --dtype fp32 --layout nchw; pack
LEFT=$(( 575 - ($(date +%s) - T0) ))
timeout $LEFT python3 bench/torch_baseline.py $B32 --config fp32_nchw --batch 32 --json "$OUT/cudnn_fp32_b32.json" > "$OUT/cudnn_fp32_b32.txt" 2> "$OUT/cudnn_fp32_b32.err"
echo "exit $?"
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob; tar czf results.tgz *.json *.txt *.err *.csv && rm -f *.json *.txt *.err *.csv; ls -la | head)
