# Session 51, call 7: 64-column subgroup blocks for long windows (8+ chunks: ResNet-50's stem) where
# B sits in registers and the grid keeps 4 workgroups per SM (the router now takes 4x64x64/1x2p2 at
# b32), against 32-column blocks (VKCONV_FEW_COOPMAT_WIDE=0: 4x32x64/1x2p4) and the 4x64x64/1x2p4
# of call 6, one binary: the stem at b32 (twice) and b1, fp16 and bf16, NHWC and NCHW, every row
# checked; the kernel's tests and the NCHW route's with the validation layer.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
head -2 docs/results/h200_s51/first.csv > /tmp/stem.csv
for i in 1 2; do
  for dt in fp16 bf16; do
    for lay in nhwc nchw; do
      VKCONV_FEW_COOPMAT_WIDE=0 RUN_TIMEOUT=30 bench_checked new narrow_${dt}_${lay}_b32_$i --shapes /tmp/stem.csv --batch 32 --dtype $dt --layout $lay
      RUN_TIMEOUT=30 bench_checked new wide_${dt}_${lay}_b32_$i --shapes /tmp/stem.csv --batch 32 --dtype $dt --layout $lay
      [ $i = 1 ] && RUN_TIMEOUT=30 bench_checked new p4_${dt}_${lay}_b32 --shapes /tmp/stem.csv --batch 32 --dtype $dt --layout $lay --algo few_channels_coopmat --tile 4x64x64/1x2p4
      [ $i = 1 ] && RUN_TIMEOUT=30 bench_checked new auto_${dt}_${lay}_b1 --shapes /tmp/stem.csv --batch 1 --dtype $dt --layout $lay
    done
  done
done
tests_validated tests.log 150 '*FewChannelsCoopmat*:*CoopmatNhwc*'
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.xz && rm -f *.json *.txt *.xz; ls -la | head)
