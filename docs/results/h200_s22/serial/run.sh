# Session 22, call 1: split-K reduced in pass 1's own dispatch by each tile's last-arriving workgroup
# (--split-reduce serial, the new default) against the second dispatch (pass), same build, same
# router model (so the same tiles and splits).  split_b1.csv: the 30 fp16 b1 layers the router split
# in h200_s21/final2.  Then a forced-split sweep (sweep_b1.csv: ten of them) in both modes, for the
# model.  fp16/bf16 NHWC, fp32 NCHW (the scalar implicit_gemm_splitk); every row checked.
# Call 1 (results_call1.tgz) ran this with a vkconv-bench built before its --split-reduce flag: the
# tests and the 128x128x64 / 256x64x64 serial sweep stand from it; call 2 (results.tgz) is this
# script without the tests, and with those two tiles in both modes.
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
D=docs/results/h200_s22/serial
[ -n "${CALL1:-}" ] && tests_validated tests.log 200 'splitk/*:SplitKPlan.*:coopmat/CoopmatTiles.*:coopmat/CoopmatShapes.*'
F="--shapes $D/split_b1.csv --batch 1 --layout nhwc --warmup-ms 100"
for i in 1 2; do
  for m in pass serial; do
    RUN_TIMEOUT=90 bench_checked new fp16_${m}_$i $F --dtype fp16 --split-reduce $m | head -3
  done
done
for m in pass serial; do
  RUN_TIMEOUT=90 bench_checked new bf16_$m $F --dtype bf16 --split-reduce $m | head -3
  RUN_TIMEOUT=120 bench_checked new fp32_$m --suite resnet50 --suite mobilenet_v2 --batch 1 --dtype fp32 --layout nchw \
    --warmup-ms 100 --split-reduce $m | head -3
done
S="--shapes $D/sweep_b1.csv --batch 1 --dtype fp16 --layout nhwc --warmup-ms 100 --algo implicit_gemm_coopmat"
for m in serial pass; do
  for s in 1 2 4 8 16 32; do
    RUN_TIMEOUT=60 bench_checked new sw_64_${m}_s$s $S --tile 64x64x32/2x2/s$s --split-reduce $m | head -2
  done
done
for m in serial pass; do
  for ts in 128x128x64/2x4s1:"1 2 4 8 16" 256x64x64/4x4s1:"2 4 8 16"; do
    t=${ts%%:*}
    for s in ${ts#*:}; do
      RUN_TIMEOUT=60 bench_checked new sw_${t//\//_}_${m}_s$s $S --tile $t/s$s --split-reduce $m | head -2
    done
  done
done
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
