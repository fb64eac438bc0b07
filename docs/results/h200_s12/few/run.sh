# Session 12, call 1: (a) the first layers (C <= 4: every suite's) through direct_few_channels, new
# build's router against the old build (4948f99) and cuDNN, fp32 NCHW and fp16 NHWC, b1 and b32;
# (b) its tiles forced on those layers (fp32 NCHW b32/b1); (c) a coopmat experiment: the 4-subgroup
# 128x128x32/2x2 double-buffered tile (two workgroups per SM) forced on the big fp16 NHWC layers
# at b32 against the shipped 128x256x32/2x4s1, AHEAD2 on and off; (d) the new tests, validated.
# Packed with OLD_BUILD=<4948f99 build> scripts/device_pack.sh build-dev; run as OUT=... bash .carry/run.sh
source scripts/device_run.sh none > /dev/null 2>&1
F="--shapes docs/results/h200_s12/few/first_layers.csv --check"
for cfg in "fp32 nchw" "fp16 nhwc"; do set -- $cfg
  for b in 32 1; do for v in old new; do
    say "first layers $1 $2 b$b $v"
    run_build $v $F --batch $b --dtype $1 --layout $2 --json "$OUT/first_$1_b${b}_$v.json" > "$OUT/first_$1_b${b}_$v.txt" 2>&1
    echo "exit $?"; sed -n '/== Summary/,$p' "$OUT/first_$1_b${b}_$v.txt" | sed -n 3p
  done; done
done
say "cuDNN first layers"
python3 bench/torch_baseline.py --shapes docs/results/h200_s12/few/first_layers.csv --config fp32_nchw --config fp16_nhwc \
  --batch 1 --batch 32 --json "$OUT/cudnn_first.json" > /dev/null 2> "$OUT/cudnn_first.err"; echo "exit $?"
for t in 8x16x32 8x32x32 4x16x32 8x16x16 8x32x64 4x32x64 8x8x32 4x8x32 2x16x32; do
  say "tile $t"
  run_build new $F --batch 32 --batch 1 --dtype fp32 --layout nchw --algo direct_few_channels --tile $t --warmup-ms 100 \
    --json "$OUT/tile_$t.json" > "$OUT/tile_$t.txt" 2>&1; echo "exit $?"
done
G="--shapes docs/results/h200_s12/few/big_layers.csv --batch 32 --dtype fp16 --layout nhwc --algo implicit_gemm_coopmat --check"
for t in 128x256x32/2x4s1 128x128x32/2x2 128x128x32/2x4; do for a in 1 0; do
  n=${t//\//_}_a$a; say "coopmat $n"
  VKCONV_COOPMAT_AHEAD2=$a run_build new $G --tile $t --json "$OUT/cm_$n.json" > "$OUT/cm_$n.txt" 2>&1; echo "exit $?"
  sed -n '/== Summary/,$p' "$OUT/cm_$n.txt" | sed -n 3p
done; done
run_build new --shader-stats --algo implicit_gemm_coopmat > "$OUT/cm_stats.txt" 2>&1; echo "stats exit $?"
run_build new --shader-stats --algo direct_few_channels > "$OUT/few_stats.txt" 2>&1; echo "stats exit $?"
tests_validated tests_few.log 200 '*FewChannels*:All/Edges*direct_few_channels:All/Edges*__auto'
(cd "$OUT" && tar czf results-few.tgz *.json *.txt *.log *.err && rm -f *.json *.txt *.log *.err)
