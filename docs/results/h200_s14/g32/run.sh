# Session 14, call 5: the grouped layer whose b8 fp16 NHWC row did not finish in call 4 (killed
# by a 100 s timeout after 73 s on it): each tile alone, with a 40 s timeout, timing the process.
source scripts/device_run.sh none > /dev/null 2>&1
for t in 256x1 256x2 256x4 128x4; do for b in 8 1; do
  s=$(date +%s.%N)
  timeout 40 $B --shapes docs/results/h200_s14/g32/g32.csv --batch $b --dtype fp16 --layout nhwc --algo direct_few_filters --tile $t \
    --warmup 1 --warmup-ms 0 --repeats 2 --calls 2 > "$OUT/g32_${t}_b$b.txt" 2>&1
  echo "$t b$b exit $? wall $(echo "$(date +%s.%N) - $s" | bc) $(grep -E '^few ' "$OUT/g32_${t}_b$b.txt" | head -1 | awk '{print $7 " us"}')"
done; done
s=$(date +%s.%N); timeout 40 $B --shapes docs/results/h200_s14/g32/g32.csv --batch 8 --dtype fp16 --layout nhwc --check > "$OUT/g32_auto_b8.txt" 2>&1
echo "auto b8 exit $? wall $(echo "$(date +%s.%N) - $s" | bc) $(grep -E '^few ' "$OUT/g32_auto_b8.txt" | head -1)"
(cd "$OUT" && tar czf results.tgz *.txt; rm -f *.txt; ls)
