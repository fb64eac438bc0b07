# Session 13, call 2: few_channels_coopmat with 8-accumulator subgroup blocks and eight subgroups
# (the heuristic after call 1's sweep), batched filter staging.
# (a) tests through the new kernel, the coopmat kernel and the first-layer kernel, validation on;
# (b) first layers fp16 NHWC b32 and b1: the router (now this kernel), direct_few_channels (the
# router's pick before), cuDNN; (c) a forced-tile sweep on the four suites' first layers at b32;
# (d) fp16 NHWC suites at b1 and b32 with cuDNN (the README's fp16 columns).
# Packed with scripts/device_pack.sh build-dev; run as OUT=... bash .carry/run.sh
source scripts/device_run.sh none > /dev/null 2>&1
D=docs/results/h200_s13/fccm
export VKCONV_SUITES_DIR=$PWD/bench/suites
tests_validated tests.log 150 '*coopmat*:*FewChannels*'
timeout 100 $C/bin/vkconv-bench --shader-stats --algo few_channels_coopmat > "$OUT/stats.txt" 2>&1; echo "stats exit $?"
F="--shapes docs/results/h200_s12/few/first_layers.csv --check --dtype fp16 --layout nhwc"
for b in 32 1; do for a in auto direct_few_channels; do
  say "first layers b$b $a"
  timeout 100 $B $F --batch $b --algo $a --json "$OUT/first_b${b}_$a.json" > "$OUT/first_b${b}_$a.txt" 2>&1
  echo "exit $?"; sed -n '/== Summary/,$p' "$OUT/first_b${b}_$a.txt" | sed -n 3,7p | cut -c1-100
done; done
timeout 100 python3 bench/torch_baseline.py --shapes docs/results/h200_s12/few/first_layers.csv --config fp16_nhwc \
  --batch 1 --batch 32 --json "$OUT/cudnn_first.json" > /dev/null 2> "$OUT/cudnn_first.err"; echo "cuDNN first exit $?"
for t in 4x64x64/1x2 4x32x64/1x2 4x64x32/1x2 8x64x32/1x1 4x32x64/1x1 8x32x32/1x1 4x64x64/1x2p2 2x64x64/1x2p4 4x64x32/1x1; do
  n=$(echo "$t" | tr '/' '_')
  timeout 40 $B --shapes $D/first4.csv --batch 32 --dtype fp16 --layout nhwc --algo few_channels_coopmat --tile "$t" --check \
    --warmup-ms 200 --json "$OUT/tile_$n.json" > "$OUT/tile_$n.txt" 2>&1
  echo "$t exit $? $(grep -E '^(resnet50|vgg16|mobilenet_v2|sd_vae)' "$OUT/tile_$n.txt" | awk '{printf "%s=%s ", $2, $7}')"
done
bench_pair fp16 nhwc 1 32 | grep -vE "^\[" | tail -16
(cd "$OUT" && tar czf results-final.tgz *.json *.txt *.log *.err && rm -f *.json *.txt *.log *.err *.csv *.tgz.none 2>/dev/null; ls)
