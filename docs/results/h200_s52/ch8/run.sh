# Session 52, call 2: `depthwise` with 8 channels per NHWC invocation (CH8: one 16-byte load per
# window pixel, half the block decode and offsets per channel) against the 4-channel invocations
# (VKCONV_DEPTHWISE_CH8=0), one binary: MobileNetV2's ten depthwise layers (../dw.csv) at b32,
# fp16 and bf16 NHWC, `depthwise` forced (the router's pick there), every row checked; the
# row-load budget (VKCONV_DEPTHWISE_CH8_XREGS 12 default, 24, 0), two block shapes, bf16 with the
# sizes specialized; NVIDIA's registers; the depthwise tests with the validation layer.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
F=docs/results/h200_s52/dw.csv
DW="--shapes $F --batch 32 --layout nhwc --algo depthwise"
for i in 1 2; do
  for dt in fp16 bf16; do
    VKCONV_DEPTHWISE_CH8=0 RUN_TIMEOUT=60 bench_checked new ch4_${dt}_$i $DW --dtype $dt
    RUN_TIMEOUT=60 bench_checked new ch8_${dt}_$i $DW --dtype $dt
  done
done
for x in 24 0; do
  for dt in fp16 bf16; do
    VKCONV_DEPTHWISE_CH8_XREGS=$x RUN_TIMEOUT=60 bench_checked new ch8_x${x}_${dt} $DW --dtype $dt
  done
done
for t in 2x2 1x4; do
  RUN_TIMEOUT=60 bench_checked new ch8_t${t}_fp16 $DW --dtype fp16 --tile $t
  VKCONV_DEPTHWISE_CH8=0 RUN_TIMEOUT=60 bench_checked new ch4_t${t}_fp16 $DW --dtype fp16 --tile $t
done
VKCONV_DEPTHWISE_SPEC_SHAPE=1 RUN_TIMEOUT=60 bench_checked new ch8_shape_bf16 $DW --dtype bf16
VKCONV_DEPTHWISE_SPEC_SHAPE=1 VKCONV_DEPTHWISE_CH8=0 RUN_TIMEOUT=60 bench_checked new ch4_shape_bf16 $DW --dtype bf16
say stats
timeout 120 $B --shader-stats --algo depthwise > "$OUT/stats.txt" 2>&1; echo "exit $?"
VKCONV_DEPTHWISE_CH8=0 timeout 120 $B --shader-stats --algo depthwise > "$OUT/stats_ch4.txt" 2>&1; echo "exit $?"
tests_validated tests.log 200 '*Depthwise*:All/Edges*'
for f in "$OUT"/ch*.txt; do printf "%-28s " $(basename $f .txt); sed -n '/== Summary/,$p' $f | grep -E "^mobilenet" | awk '{print $7}'; done
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.err *.xz 2>/dev/null; rm -f *.json *.txt *.err *.xz; ls -la | head)
