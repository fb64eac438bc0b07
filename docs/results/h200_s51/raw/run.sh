# Session 51, call 1: few_channels_coopmat's halo expanded from raw input rows (16-byte words of
# the rows a step reads, then shared-memory reads; " raw" in the config) against the element
# gather (VKCONV_FEW_COOPMAT_RAW=0), one binary, on the suites' first layers and the RDNA1
# matrix's 3-channel sizes (`../first.csv`): fp16 and bf16, NHWC and NCHW, b32 (the four first
# layers; fp16 NHWC twice) and b1 (all); the RDNA1 sizes at b1 NCHW forced onto the kernel (the
# router sends them to direct_few_channels); every row checked.  NVIDIA's registers of the
# kernel's variants; the kernel's tests and the NCHW route's with the validation layer.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
F=docs/results/h200_s51/first.csv
head -5 $F > /tmp/first4.csv
for i in 1 2; do
  for dt in fp16 bf16; do
    for lay in nhwc nchw; do
      [ $i = 2 ] && { [ $dt = bf16 ] || [ $lay = nchw ]; } && continue
      VKCONV_FEW_COOPMAT_RAW=0 RUN_TIMEOUT=60 bench_checked new gather_${dt}_${lay}_b32_$i --shapes /tmp/first4.csv --batch 32 --dtype $dt --layout $lay
      RUN_TIMEOUT=60 bench_checked new raw_${dt}_${lay}_b32_$i --shapes /tmp/first4.csv --batch 32 --dtype $dt --layout $lay
    done
  done
done
for dt in fp16 bf16; do
  for lay in nhwc nchw; do
    VKCONV_FEW_COOPMAT_RAW=0 RUN_TIMEOUT=60 bench_checked new gather_${dt}_${lay}_b1 --shapes $F --batch 1 --dtype $dt --layout $lay
    RUN_TIMEOUT=60 bench_checked new raw_${dt}_${lay}_b1 --shapes $F --batch 1 --dtype $dt --layout $lay
  done
done
for dt in fp16 bf16; do
  VKCONV_FEW_COOPMAT_RAW=0 RUN_TIMEOUT=60 bench_checked new gather_${dt}_nchw_b1_forced --shapes $F --batch 1 --dtype $dt --layout nchw --algo few_channels_coopmat
  RUN_TIMEOUT=60 bench_checked new raw_${dt}_nchw_b1_forced --shapes $F --batch 1 --dtype $dt --layout nchw --algo few_channels_coopmat
done
say "shader stats"
timeout 120 $B --shader-stats --algo few_channels_coopmat --json $OUT/stats.json > $OUT/stats.txt 2>&1; echo "exit $?"
grep few_channels $OUT/stats.txt | cut -c1-150
L=$(( 560 - ($(date +%s) - T0) )); [ $L -gt 20 ] && tests_validated tests.log $L '*FewChannelsCoopmat*:*CoopmatNhwc*'
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.xz && rm -f *.json *.txt *.xz; ls -la | head)
