# Session 45, call 4: 16-bit NCHW layers of up to 1 MiB whose NHWC problem goes to a direct matrix
# kernel, sent to plain winograd where it beats that kernel charged its transposes
# (plainWinogradPays), against the rule before (VKCONV_NCHW_PLAIN_WINOGRAD=0: behind the transposes)
# in one binary, on the 13 layers whose H200 plans it moves (nchw_flips.csv), every row checked:
# fp16 and bf16 NCHW at batch 1 (twice, rotated) and 32; then the winograd and coopmat_nhwc
# tests with the validation layer.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
F="--shapes docs/results/h200_s45/nchw_flips.csv --layout nchw"
for i in 1 2; do
  for dt in fp16 bf16; do
    RUN_TIMEOUT=25 bench_checked new ${dt}_b1_new_$i $F --batch 1 --dtype $dt
    VKCONV_NCHW_PLAIN_WINOGRAD=0 RUN_TIMEOUT=25 bench_checked new ${dt}_b1_old_$i $F --batch 1 --dtype $dt
  done
done
for dt in fp16 bf16; do
  RUN_TIMEOUT=30 bench_checked new ${dt}_b32_new $F --batch 32 --dtype $dt
  VKCONV_NCHW_PLAIN_WINOGRAD=0 RUN_TIMEOUT=30 bench_checked new ${dt}_b32_old $F --batch 32 --dtype $dt
done
LEFT=$(( 290 - ($(date +%s) - T0) ))
LEFT=$(( LEFT < 70 ? LEFT : 70 ))
[ $LEFT -gt 15 ] && tests_validated tests.log $LEFT 'CoopmatNhwc*:*FilterInInputDispatch*:winograd/*:WinogradCoopmat.*'
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.xz && rm -f *.json *.txt *.xz; ls -la | head)
