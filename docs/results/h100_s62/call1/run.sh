# Session 62, call 1: the device's peaks (vkconv-bench --peak, now recording the dispatch rate and
# the best staged slice loop), fp16 NHWC at b32 (the four suites the anchors time at 32) and b1
# (all six), every row checked against float64, cuDNN 9.19 on the same rows in the same call,
# then bench/bounds.py: each layer's bound against both, and issue 5's fp16 targets read off it.
T0=$(date +%s)
source scripts/device_run.sh info > /dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
pack() { (cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err 2>/dev/null); }
say peak
VKCONV_CACHE_DIR=/tmp/vkconv-cache-new timeout 200 $C/bin/vkconv-bench --peak > "$OUT/peak.txt" 2>&1; echo "exit $?"
cp /tmp/vkconv-cache-new/peaks-*.json "$OUT/peaks.json"
grep -E "FMA|shader copy|call floor \(|dispatch alone|16x16x16 f16\*f16\+f32" "$OUT/peak.txt" | cut -c1-110
python3 -c "import json; p=json.load(open('$OUT/peaks.json'))['peaks']; print('slice loop', p.get('slice_loop_tflops'), p.get('slice_loop_probe'))"
pack
RUN_TIMEOUT=120 bench_checked new fp16_nhwc_b32 $B32 --batch 32 --dtype fp16 --layout nhwc; pack
RUN_TIMEOUT=90 bench_checked new fp16_nhwc_b1 --batch 1 --dtype fp16 --layout nhwc; pack
say cudnn
LEFT=$(( 560 - ($(date +%s) - T0) ))
timeout $LEFT python3 bench/torch_baseline.py --config fp16_nhwc --batch 1 --batch 32 --json "$OUT/cudnn_fp16_nhwc.json" > "$OUT/cudnn_fp16_nhwc.txt" 2> "$OUT/cudnn_fp16_nhwc.err"
echo "exit $?"; pack
for b in 32 1; do
  t=0.8; [ $b = 32 ] && t=1.0
  python3 bench/bounds.py "$OUT/fp16_nhwc_b$b.json" --baseline "$OUT/cudnn_fp16_nhwc.json" --target $b=$t --layers 40 > "$OUT/bounds_fp16_b$b.txt" 2>&1
  sed -n '1,/^per layer/p' "$OUT/bounds_fp16_b$b.txt"
done
pack
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && rm -f *.json *.txt *.err; ls -la)
