# Session 21, call 5: the split layers on 7x7-25x25 maps at b1 after item 53 (small_b1.csv: twelve
# MobileNetV2, ResNet-50 and RetinaNet layers the router splits): 64x64x32/2x2 with 1-32 splits,
# 128x128x16/2x4, 128x128x32/2x4 and 128x64x32/2x2 with 4-16, against the router.  fp16 NHWC,
# every row checked.
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
D=docs/results/h200_s21/sweep2
F="--shapes $D/small_b1.csv --batch 1 --dtype fp16 --layout nhwc --warmup-ms 100"
RUN_TIMEOUT=60 bench_checked new auto $F
for ts in 64x64x32/2x2:"1 2 4 8 16 32" 128x128x16/2x4:"4 8 16" 128x128x32/2x4:"4 8 16" 128x64x32/2x2:"4 8 16"; do
  t=${ts%%:*}
  for s in ${ts#*:}; do
    RUN_TIMEOUT=60 bench_checked new ${t//\//_}_s$s $F --algo implicit_gemm_coopmat --tile $t/s$s | head -2
  done
done
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
