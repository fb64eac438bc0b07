# Session 13, call 1: few_channels_coopmat (first layers on the matrix units).
# (a) tests through the new kernel and the coopmat kernel, validation layer on; (b) NVIDIA's
# register counts for its variants; (c) first layers fp16 NHWC b32 and b1: the new kernel's
# heuristic tile, direct_few_channels (the router's pick before), a forced-tile sweep on the four
# suites' first layers at b32, and cuDNN on the same shapes.
# Packed with scripts/device_pack.sh build-dev; run as OUT=... bash .carry/run.sh
source scripts/device_run.sh none > /dev/null 2>&1
D=docs/results/h200_s13/fccm
export VKCONV_SUITES_DIR=$PWD/bench/suites
tests_validated tests.log 200 '*coopmat*:*FewChannels*'
say "shader stats"
timeout 120 $C/bin/vkconv-bench --shader-stats --algo few_channels_coopmat > "$OUT/stats.txt" 2>&1; echo "exit $?"
grep -E "few_channels_coopmat" "$OUT/stats.txt" | head -20
F="--shapes docs/results/h200_s12/few/first_layers.csv --check --dtype fp16 --layout nhwc"
for b in 32 1; do for a in few_channels_coopmat direct_few_channels; do
  say "first layers b$b $a"
  timeout 150 $B $F --batch $b --algo $a --json "$OUT/first_b${b}_$a.json" > "$OUT/first_b${b}_$a.txt" 2>&1
  echo "exit $?"; sed -n '/== Summary/,$p' "$OUT/first_b${b}_$a.txt" | sed -n 3,4p
  grep -E "conv1 |features.0 |l0 " "$OUT/first_b${b}_$a.txt" | cut -c1-200
done; done
say "cuDNN first layers"
timeout 120 python3 bench/torch_baseline.py --shapes docs/results/h200_s12/few/first_layers.csv --config fp16_nhwc \
  --batch 1 --batch 32 --json "$OUT/cudnn_first.json" > /dev/null 2> "$OUT/cudnn_first.err"; echo "exit $?"
for t in 4x64x64/1x1 2x64x64/1x1 1x64x64/1x1 8x64x64/1x1 4x32x64/1x1 2x128x64/2x1 4x128x32/1x1 2x64x64/1x2 \
         4x64x64/1x1p2 4x64x64/1x1p4 2x64x64/1x1p4 4x64x32/1x2; do
  n=$(echo "$t" | tr '/' '_')
  timeout 60 $B --shapes $D/first4.csv --batch 32 --dtype fp16 --layout nhwc --algo few_channels_coopmat --tile "$t" --check \
    --warmup-ms 200 --json "$OUT/tile_$n.json" > "$OUT/tile_$n.txt" 2>&1
  echo "$t exit $? $(grep -E '^(resnet50|vgg16|mobilenet_v2|sd_vae)' "$OUT/tile_$n.txt" | awk '{printf "%s=%s ", $2, $7}')"
done
(cd "$OUT" && tar czf results-fccm.tgz *.json *.txt *.log *.err *.csv && rm -f *.json *.txt *.log *.err *.csv)
