# Session 62, call 3: the peak probe again with one more slice-loop shape, one 16x16 accumulator
# per subgroup (an A and a B fragment loaded for every product: a fused F(2x2) winograd's load
# ratio; perf-notes 160), beside the shapes of call 1, on the same kind of card.
source scripts/device_run.sh info > /dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
VKCONV_CACHE_DIR=/tmp/vkconv-cache-p3 timeout 200 $C/bin/vkconv-bench --peak > "$OUT/peak.txt" 2>&1; echo "exit $?"
cp /tmp/vkconv-cache-p3/peaks-*.json "$OUT/peaks.json"
grep -E "call floor \(|dispatch alone|16x16x16 f16\*f16\+f32|, 32-deep slices \(|32x32 per subgroup, 4 subgroups, 64-deep slices \(|16x16 per subgroup" "$OUT/peak.txt" | sed 's/ (best.*//'
