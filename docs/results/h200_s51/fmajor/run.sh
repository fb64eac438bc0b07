# Session 51, call 5 (not kept; the build is 41d9f9e with `fmajor.patch`): few_channels_coopmat's
# filter staging with its items filter by filter (a
# warp's element loads over a few filters' contiguous values) against filters fastest
# (VKCONV_FEW_COOPMAT_FMAJOR=0), one binary: `../first.csv`'s four first layers at b32 (fp16 NHWC
# twice) and all of it at b1, fp16 and bf16, NHWC and NCHW, every row checked; the kernel's tests
# and the NCHW route's with the validation layer.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
F=docs/results/h200_s51/first.csv
head -5 $F > /tmp/first4.csv
for i in 1 2; do
  for dt in fp16 bf16; do
    for lay in nhwc nchw; do
      [ $i = 2 ] && { [ $dt = bf16 ] || [ $lay = nchw ]; } && continue
      VKCONV_FEW_COOPMAT_FMAJOR=0 RUN_TIMEOUT=40 bench_checked new kfast_${dt}_${lay}_b32_$i --shapes /tmp/first4.csv --batch 32 --dtype $dt --layout $lay
      RUN_TIMEOUT=40 bench_checked new fmaj_${dt}_${lay}_b32_$i --shapes /tmp/first4.csv --batch 32 --dtype $dt --layout $lay
    done
  done
done
for dt in fp16 bf16; do
  for lay in nhwc nchw; do
    VKCONV_FEW_COOPMAT_FMAJOR=0 RUN_TIMEOUT=40 bench_checked new kfast_${dt}_${lay}_b1 --shapes $F --batch 1 --dtype $dt --layout $lay
    RUN_TIMEOUT=40 bench_checked new fmaj_${dt}_${lay}_b1 --shapes $F --batch 1 --dtype $dt --layout $lay
  done
done
tests_validated tests.log 150 '*FewChannelsCoopmat*:*CoopmatNhwc*'
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.xz && rm -f *.json *.txt *.xz; ls -la | head)
