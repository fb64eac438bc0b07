# Session 51, call 6: which tile the first layers want with raw rows (the router's rules were
# fitted with the gather): `../first.csv`'s four first layers, fp16 NHWC b32, the router and
# eleven forced tiles; then NCHW with raw rows forced at stride 2 too (VKCONV_FEW_COOPMAT_RAW=1)
# against the gather (=0) on the router's and two other tiles (does the NCHW stride-2 loss of
# item 137 follow the tile's occupancy?).  One binary (2633ddf), every row checked.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
head -5 docs/results/h200_s51/first.csv > /tmp/first4.csv
for t in router 8x32x32/1x1p2 8x32x32/1x1p4 4x32x32/1x1p4 4x32x32/1x1p8 8x16x32/1x1p4 4x16x32/1x1p8 4x32x64/1x2p4 4x32x64/1x2p8 2x32x64/1x2p8 4x64x64/1x2p4 8x32x64/1x2p4; do
  a=; [ $t = router ] || a="--algo few_channels_coopmat --tile $t"
  RUN_TIMEOUT=40 bench_checked new nhwc_${t//\//_} --shapes /tmp/first4.csv --batch 32 --dtype fp16 --layout nhwc $a
done
for t in router 2x32x64/1x2p8 4x16x64/1x2p4; do
  a=; [ $t = router ] || a="--algo few_channels_coopmat --tile $t"
  for v in 0 1; do
    VKCONV_FEW_COOPMAT_RAW=$v RUN_TIMEOUT=40 bench_checked new nchw_${t//\//_}_raw$v --shapes /tmp/first4.csv --batch 32 --dtype fp16 --layout nchw $a
  done
done
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt && rm -f *.json *.txt; ls -la | head)
