# Session 15, call 7: every algorithm that accepts them (--algo all) on the five MobileNetV2 layers
# with the largest fp16 b32 gap to cuDNN after the depthwise work (gap_layers.csv: the 1x1 layers
# at 112x112 and 56x56), fp16 and bf16 NHWC at b32, every row --check'ed, and cuDNN, same call.
# Packed with scripts/device_pack.sh build-dev; run as OUT=... bash .carry/run.sh
source scripts/device_run.sh none > /dev/null 2>&1
D=docs/results/h200_s15/allalgo
for dt in fp16 bf16; do
  say "all $dt"
  timeout 200 $B --shapes $D/gap_layers.csv --algo all --dtype $dt --layout nhwc --batch 32 --check --json "$OUT/all_$dt.json" > "$OUT/all_$dt.txt" 2>&1
  echo "exit $?"
done
say cudnn
timeout 100 python3 bench/torch_baseline.py --shapes $D/gap_layers.csv --config fp16_nhwc --config bf16_nhwc --batch 32 --json "$OUT/cudnn.json" > "$OUT/cudnn.txt" 2> "$OUT/cudnn.err"
echo "exit $?"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
