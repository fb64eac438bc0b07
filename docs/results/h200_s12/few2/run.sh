# Session 12, call 2: direct_few_channels after batching its staging loads (8 in flight per
# invocation instead of one per round trip) and staging NHWC outputs through shared memory, with
# the tile order from call 1 (fewer rows before fewer filters, 32-wide columns unless they pad Q
# by more than a quarter).  (a) first layers, router, old build (4948f99) vs new, fp32 NCHW,
# fp16 NHWC and fp32 NHWC at b32 and b1, cuDNN on the same in this call; (b) tiles forced
# (fp32 NCHW and fp16 NHWC, b32 and b1); (c) ResNet-50 fp32 NCHW b32 new; (d) tests, validated.
# Packed with OLD_BUILD=<4948f99 build> scripts/device_pack.sh build-dev; run as OUT=... bash .carry/run.sh
source scripts/device_run.sh none > /dev/null 2>&1
F="--shapes docs/results/h200_s12/few/first_layers.csv --check"
for cfg in "fp32 nchw" "fp16 nhwc" "fp32 nhwc"; do set -- $cfg
  for b in 32 1; do for v in old new; do
    say "first layers $1 $2 b$b $v"
    run_build $v $F --batch $b --dtype $1 --layout $2 --json "$OUT/first_$1_$2_b${b}_$v.json" > "$OUT/first_$1_$2_b${b}_$v.txt" 2>&1
    echo "exit $?"; sed -n '/== Summary/,$p' "$OUT/first_$1_$2_b${b}_$v.txt" | sed -n 3p
  done; done
done
say "cuDNN first layers"
python3 bench/torch_baseline.py --shapes docs/results/h200_s12/few/first_layers.csv --config fp32_nchw --config fp16_nhwc \
  --config fp32_nhwc --batch 1 --batch 32 --json "$OUT/cudnn_first.json" > /dev/null 2> "$OUT/cudnn_first.err"; echo "exit $?"
for cfg in "fp32 nchw" "fp16 nhwc"; do set -- $cfg
  for t in 8x32x64 4x32x64 2x32x64 8x32x32 4x32x32 8x16x64 4x16x64 2x16x64 8x16x32 2x16x32; do
    say "tile $t $1 $2"
    run_build new $F --batch 32 --batch 1 --dtype $1 --layout $2 --algo direct_few_channels --tile $t --warmup-ms 100 \
      --json "$OUT/tile_${t}_$1_$2.json" > "$OUT/tile_${t}_$1_$2.txt" 2>&1; echo "exit $?"
  done
done
say "resnet50 fp32 nchw b32 new"
run_build new --suite resnet50 --batch 32 --dtype fp32 --layout nchw --check --json "$OUT/rn_b32.json" > "$OUT/rn_b32.txt" 2>&1
echo "exit $?"; sed -n '/== Summary/,$p' "$OUT/rn_b32.txt" | sed -n 3p
tests_validated tests_few2.log 200 '*FewChannels*:All/Edges*direct_few_channels:All/Edges*__auto'
(cd "$OUT" && tar czf results-few2.tgz *.json *.txt *.log *.err && rm -f *.json *.txt *.log *.err)
