# Session 62, call 2: bf16 NHWC at b32 (the four suites the anchors time at 32) and b1 (all six),
# every row checked against float64, cuDNN 9.19 on the same rows in the same call, then
# bench/bounds.py with the peaks call 1 measured on this machine (peaks-*.json beside this script,
# put back into the pipeline cache's directory where the machine started afresh).
T0=$(date +%s)
source scripts/device_run.sh info > /dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
pack() { (cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err 2>/dev/null); }
mkdir -p /tmp/vkconv-cache-new
ls /tmp/vkconv-cache-new/peaks-*.json > /dev/null 2>&1 || cp docs/results/h100_s62/call2/peaks-*.json /tmp/vkconv-cache-new/
RUN_TIMEOUT=140 bench_checked new bf16_nhwc_b32 $B32 --batch 32 --dtype bf16 --layout nhwc; pack
RUN_TIMEOUT=100 bench_checked new bf16_nhwc_b1 --batch 1 --dtype bf16 --layout nhwc; pack
say cudnn
LEFT=$(( 560 - ($(date +%s) - T0) ))
timeout $LEFT python3 bench/torch_baseline.py --config bf16_nhwc --batch 1 --batch 32 --json "$OUT/cudnn_bf16_nhwc.json" > "$OUT/cudnn_bf16_nhwc.txt" 2> "$OUT/cudnn_bf16_nhwc.err"
echo "exit $?"; pack
for b in 32 1; do
  t=0.8; [ $b = 32 ] && t=1.0
  python3 bench/bounds.py "$OUT/bf16_nhwc_b$b.json" --baseline "$OUT/cudnn_bf16_nhwc.json" --target $b=$t --layers 40 > "$OUT/bounds_bf16_b$b.txt" 2>&1
  sed -n '1,/^per layer/p' "$OUT/bounds_bf16_b$b.txt"
done
pack
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && rm -f *.json *.txt *.err; ls -la)
