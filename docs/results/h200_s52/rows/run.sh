# Session 52, call 3: one-row `depthwise` blocks for strided NHWC rows (the new rule) against the
# two-row block (VKCONV_DEPTHWISE_STRIDED_ONE_ROW=0), one binary: MobileNetV2's ten depthwise
# layers (../dw.csv) at b32, fp16, bf16 and fp32 NHWC, twice, alternating, every row checked;
# MobileNetV2 fp16 and bf16 NHWC b32 through the router with cuDNN in the same call (the README's
# two cells); the first layers (../../h200_s51/first.csv) at b1 NCHW through the router and with
# `few_channels_coopmat` and `direct_few_channels` forced (the router's rule between them was
# fitted before session 51's raw rows); the depthwise tests with the validation layer.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
DW="--shapes docs/results/h200_s52/dw.csv --batch 32 --layout nhwc"
for i in 1 2; do
  for dt in fp16 bf16 fp32; do
    VKCONV_DEPTHWISE_STRIDED_ONE_ROW=0 RUN_TIMEOUT=60 bench_checked new two_${dt}_$i $DW --dtype $dt
    RUN_TIMEOUT=60 bench_checked new one_${dt}_$i $DW --dtype $dt
  done
done
for dt in fp16 bf16; do
  RUN_TIMEOUT=90 bench_checked new mnv2_${dt}_b32 --suite mobilenet_v2 --batch 32 --dtype $dt --layout nhwc
done
say cudnn
timeout 150 python3 bench/torch_baseline.py --suite mobilenet_v2 --config fp16_nhwc --config bf16_nhwc --batch 32 --json "$OUT/cudnn_mnv2_b32.json" > "$OUT/cudnn_mnv2_b32.txt" 2> "$OUT/cudnn_mnv2_b32.err"
echo "exit $?"
F=docs/results/h200_s51/first.csv
for dt in fp16 bf16; do
  RUN_TIMEOUT=60 bench_checked new first_${dt}_nchw_b1 --shapes $F --batch 1 --dtype $dt --layout nchw
  RUN_TIMEOUT=60 bench_checked new first_${dt}_nchw_b1_fcc --shapes $F --batch 1 --dtype $dt --layout nchw --algo few_channels_coopmat
  RUN_TIMEOUT=60 bench_checked new first_${dt}_nchw_b1_dfc --shapes $F --batch 1 --dtype $dt --layout nchw --algo direct_few_channels
done
tests_validated tests.log 120 '*DepthwiseTiles*:*DepthwiseRouting*'
for f in "$OUT"/*.txt; do printf "%-28s " $(basename $f .txt); sed -n '/== Summary/,$p' $f | grep -vE '^(== |suite |$)' | head -1 | awk '{print $7}'; done
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.err *.xz 2>/dev/null; rm -f *.json *.txt *.err *.xz; ls -la | head)
