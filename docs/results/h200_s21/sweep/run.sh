# Session 21, call 1: the per-call floors, and where the coopmat model's tile and split choices
# lose on short reductions and small grids.
#  1. vkconv-bench --peak (with the new call-floor probes) and torch_baseline's call floor
#     (one resnet50 layer so it writes its JSON: peaks.call_floor_us).
#  2. Every implicit_gemm_coopmat tile forced, one pass, on short-reduction 1x1 layers
#     (short_b1.csv: SD-VAE l6, l8, l9 at b1; short_b32.csv: five ResNet-50 1x1 layers at b32).
#  3. Four tiles x splits 1..16 forced on eight small-grid b1 layers (split_b1.csv).
# fp16 NHWC, every row checked; the router's own pick ("auto") on each file in the same call.
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
D=docs/results/h200_s21/sweep
say peak; RUN_TIMEOUT=200 run_build new --peak > "$OUT/peak.txt" 2>&1; echo "exit $?"; grep -E "call floor|dispatch alone|coopmat 16x16x16 f16|copy" "$OUT/peak.txt"
say "cudnn floor"; timeout 100 python3 bench/torch_baseline.py --suite resnet50 --limit 1 --config fp16_nhwc --json "$OUT/cudnn_floor.json" > /dev/null 2> "$OUT/cudnn_floor.err"; echo "exit $?"; grep "call floor" "$OUT/cudnn_floor.err"
F="--dtype fp16 --layout nhwc --warmup-ms 100"
RUN_TIMEOUT=60 bench_checked new short_b1_auto --shapes $D/short_b1.csv --batch 1 $F
RUN_TIMEOUT=60 bench_checked new short_b32_auto --shapes $D/short_b32.csv --batch 32 $F
RUN_TIMEOUT=60 bench_checked new split_b1_auto --shapes $D/split_b1.csv --batch 1 $F
for t in 128x128x32/2x4 128x64x32/2x2 64x64x32/2x2 256x128x32/4x2s1 128x256x32/2x4s1 128x128x64/2x4s1 256x64x32/4x2s1 64x256x32/1x8s1 128x128x16/2x4 192x128x64/4x2s1 192x128x64/4x4s1 256x64x64/4x4s1; do
  n=${t//\//_}
  RUN_TIMEOUT=60 bench_checked new short_b1_$n --shapes $D/short_b1.csv --batch 1 $F --algo implicit_gemm_coopmat --tile $t/s1 | head -2
  RUN_TIMEOUT=60 bench_checked new short_b32_$n --shapes $D/short_b32.csv --batch 32 $F --algo implicit_gemm_coopmat --tile $t/s1 | head -2
done
for t in 128x128x64/2x4s1 128x128x32/2x4 64x64x32/2x2 128x128x16/2x4; do
  for s in 1 2 4 8 16; do
    RUN_TIMEOUT=60 bench_checked new split_b1_${t//\//_}_s$s --shapes $D/split_b1.csv --batch 1 $F --algo implicit_gemm_coopmat --tile $t/s$s | head -2
  done
done
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
