# Session 30, call 1: one-subgroup implicit_gemm_coopmat tiles (32x32x32/1x1, 64x32x32/1x1,
# 32x64x32/1x1, 64x64x16/1x1, 32x32x64/1x1, 32x32x16/1x1; forced only) against the router on the 66
# fp16 NHWC layers furthest behind cuDNN (bench/cases/s29_coopmat_sweep.csv), their NVIDIA register
# counts, and their tile tests on real cooperative matrices (validation layer on).  Every row checked.
T0=$(date +%s)
for f in .carry/bin/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
say "shader stats"
for T in 32x 64x32x32/1x1 64x64x16/1x1; do
  timeout 60 $B --shader-stats --algo implicit_gemm_coopmat --tile $T --json "$OUT/stats_${T//\//_}.json" > "$OUT/stats_${T//\//_}.txt" 2>&1
  echo "exit $?"; grep -E "1x1" "$OUT/stats_${T//\//_}.txt" | head -12
done
tests_validated tests_sg1.log 60 'coopmat_sg1*'
S="--shapes bench/cases/s29_coopmat_sweep.csv --dtype fp16 --layout nhwc --warmup-ms 100 --repeats 5"
RUN_TIMEOUT=60 bench_checked new auto $S
for T in 32x32x32/1x1 64x32x32/1x1 32x64x32/1x1 64x64x16/1x1 32x32x64/1x1 32x32x16/1x1; do
  LEFT=$(( 570 - ($(date +%s) - T0) )); [ $LEFT -lt 20 ] && break
  RUN_TIMEOUT=$(( LEFT < 60 ? LEFT : 60 )) bench_checked new t_${T//\//_} $S --algo implicit_gemm_coopmat --tile $T
done
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.log && rm -f *.json *.txt *.log; ls)
