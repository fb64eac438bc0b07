# Session 29, call 5: every implicit_gemm_coopmat tile forced (its splits the router's) on the 66
# fp16 NHWC layers the router sends to it that ran > 1.5x cuDNN and > 2 us behind in call 4
# (bench/cases/s29_coopmat_sweep.csv: b32 and b1 rows), to find where the router's tile is not the
# best (perf-notes 74).  Every row checked.
T0=$(date +%s)
for f in .carry/bin/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
S="--shapes bench/cases/s29_coopmat_sweep.csv --dtype fp16 --layout nhwc --warmup-ms 50 --repeats 5"
RUN_TIMEOUT=60 bench_checked new auto $S
for T in 128x128x32/2x4 128x64x32/2x2 128x256x32/2x4s1 128x128x64/2x4s1 256x64x32/4x2s1 128x128x16/2x4 \
         192x128x64/4x4s1 256x64x64/4x4s1 64x32x16/2x1 64x64x64/2x4 64x64x32/2x4 256x128x32/4x2s1; do
  LEFT=$(( 540 - ($(date +%s) - T0) )); [ $LEFT -lt 20 ] && break
  RUN_TIMEOUT=$(( LEFT < 60 ? LEFT : 60 )) bench_checked new t_${T//\//_} $S --algo implicit_gemm_coopmat --tile $T
done
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.log && rm -f *.json *.txt *.log; ls)
