# Session 50, call 2: few_channels_coopmat with each subgroup's filter fragments in registers (BREG,
# B staged over the halo) against B in shared memory (VKCONV_FEW_COOPMAT_BREG=0), one binary, on
# the suites' first layers (`../first.csv`): fp16 and bf16, NHWC and NCHW, b32 (old, new, twice)
# and b1; every row checked.  Forced tiles the overlaid shared memory lets fit; NVIDIA's registers
# of the kernel's variants; the kernel's tests and the NCHW route's with the validation layer.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
F=docs/results/h200_s50/first.csv
for i in 1 2; do
  for dt in fp16 bf16; do
    for lay in nhwc nchw; do
      for b in 32 1; do
        [ $i = 2 ] && { [ $b = 1 ] || [ $lay = nchw ]; } && continue
        VKCONV_FEW_COOPMAT_BREG=0 RUN_TIMEOUT=60 bench_checked new old_${dt}_${lay}_b${b}_$i --shapes $F --batch $b --dtype $dt --layout $lay
        RUN_TIMEOUT=60 bench_checked new new_${dt}_${lay}_b${b}_$i --shapes $F --batch $b --dtype $dt --layout $lay
      done
    done
  done
done
for t in 8x32x64/1x2p2 8x32x64/1x2p4 4x32x64/1x2p8 4x64x64/1x2p2 8x32x32/1x1p4 4x32x32/1x1p4; do
  RUN_TIMEOUT=40 bench_checked new tile_${t//\//_} --shapes $F --batch 32 --dtype fp16 --layout nhwc --algo few_channels_coopmat --tile $t
done
say "shader stats"
timeout 120 $B --shader-stats --algo few_channels_coopmat --json $OUT/stats.json > $OUT/stats.txt 2>&1; echo "exit $?"
L=$(( 560 - ($(date +%s) - T0) )); [ $L -gt 20 ] && tests_validated tests.log $L '*FewChannelsCoopmat*:*CoopmatNhwc*'
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.xz && rm -f *.json *.txt *.xz; ls -la | head)
