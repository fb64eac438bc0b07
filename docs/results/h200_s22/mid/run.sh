# Session 22, call 5: mid-size grids at batch 32 (mid_b32.csv: twelve ResNet-50 and MobileNetV2
# layers with 7x7-28x28 maps and deep reductions, 1.9-4.7x cuDNN in h200_s21/final2): seven coopmat
# tiles x splits 1-8 forced, against the router.  fp16 NHWC, every row checked.  Build: main at 357b010.
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
D=docs/results/h200_s22/mid
F="--shapes $D/mid_b32.csv --batch 32 --dtype fp16 --layout nhwc --warmup-ms 100"
RUN_TIMEOUT=60 bench_checked new auto $F | head -3
for ts in 64x64x32/2x2:"1 2 4 8" 128x64x32/2x2:"1 2 4" 128x128x32/2x4:"1 2 4" 128x128x64/2x4s1:"1 2 4" \
          192x128x64/4x4s1:"1 2 4" 128x256x32/2x4s1:"1 2" 256x64x64/4x4s1:"1 2 4"; do
  t=${ts%%:*}
  for s in ${ts#*:}; do
    RUN_TIMEOUT=60 bench_checked new ${t//\//_}_s$s $F --algo implicit_gemm_coopmat --tile $t/s$s | head -1
  done
done
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
