# Session 51, call 2: raw rows with each filter row's misalignment found once (not per value) in
# the expansion, against the element gather (VKCONV_FEW_COOPMAT_RAW=0), one binary: the four first
# layers at b32 in NCHW (fp16, bf16) and NHWC (fp16, bf16), the RDNA1 matrix's 3-channel sizes too
# at b1 in NCHW (router and forced onto the kernel); every row checked; NVIDIA's registers.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
F=docs/results/h200_s51/first.csv
head -5 $F > /tmp/first4.csv
for dt in fp16 bf16; do
  for lay in nchw nhwc; do
    VKCONV_FEW_COOPMAT_RAW=0 RUN_TIMEOUT=60 bench_checked new gather_${dt}_${lay}_b32 --shapes /tmp/first4.csv --batch 32 --dtype $dt --layout $lay
    RUN_TIMEOUT=60 bench_checked new raw_${dt}_${lay}_b32 --shapes /tmp/first4.csv --batch 32 --dtype $dt --layout $lay
  done
  VKCONV_FEW_COOPMAT_RAW=0 RUN_TIMEOUT=60 bench_checked new gather_${dt}_nchw_b1 --shapes $F --batch 1 --dtype $dt --layout nchw --algo few_channels_coopmat
  RUN_TIMEOUT=60 bench_checked new raw_${dt}_nchw_b1 --shapes $F --batch 1 --dtype $dt --layout nchw --algo few_channels_coopmat
done
say "shader stats"
timeout 120 $B --shader-stats --algo few_channels_coopmat --json $OUT/stats.json > $OUT/stats.txt 2>&1; echo "exit $?"
grep few_channels $OUT/stats.txt | cut -c1-150
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.xz && rm -f *.json *.txt *.xz; ls -la | head)
