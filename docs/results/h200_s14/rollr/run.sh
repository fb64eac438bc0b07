# Session 14, call 6: direct_few_filters with the filter-row loop left rolled (the unrolled body
# was FR times larger: ~3x slower compiles in lavapipe) against the previous build (948a101, rows
# unrolled), same call, alternating; the few-filter tests with the validation layer.
# Packed with MORE_BUILDS=prev=<948a101 build> scripts/device_pack.sh build-dev; run as OUT=... bash .carry/run.sh
source scripts/device_run.sh none > /dev/null 2>&1
D=docs/results/h200_s14/few_filters
tests_validated tests.log 90 '*FewFilters*'
for v in prev new prev new; do
  d=$C; [ $v = new ] || d=$C/$v
  for cfg in "fp16 nhwc" "fp32 nchw"; do set -- $cfg
    LD_LIBRARY_PATH=$d/lib VKCONV_CACHE_DIR=/tmp/vkconv-cache-$v timeout 60 $d/bin/vkconv-bench --suites-dir bench/suites \
      --shapes $D/few_filters.csv --batch 1 --dtype $1 --layout $2 --algo direct_few_filters --check --json "$OUT/${v}_$1_$2_$RANDOM.json" > "$OUT/last.txt" 2>&1
    echo "$v $1 $2 exit $? $(grep -E '^few_filters ' "$OUT/last.txt" | awk '{printf "%s=%s ", $2, $7}')"
  done
done
(cd "$OUT" && tar czf results.tgz *.json *.log; rm -f *.json *.txt *.log; ls)
