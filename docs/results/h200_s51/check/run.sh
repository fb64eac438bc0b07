# Session 51, call 4: the committed build (call 3's, with masked columns' shared-memory reads kept
# inside their segment) checked again: the kernel's tests and the NCHW route's with the
# validation layer, and the fp16 / bf16 NHWC b32 A/B on the four first layers (every row checked)
# to show the mend moved nothing.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
head -5 docs/results/h200_s51/first.csv > /tmp/first4.csv
tests_validated tests.log 150 '*FewChannelsCoopmat*:*CoopmatNhwc*'
for dt in fp16 bf16; do
  VKCONV_FEW_COOPMAT_RAW=0 RUN_TIMEOUT=40 bench_checked new gather_${dt}_nhwc_b32 --shapes /tmp/first4.csv --batch 32 --dtype $dt --layout nhwc
  RUN_TIMEOUT=40 bench_checked new raw_${dt}_nhwc_b32 --shapes /tmp/first4.csv --batch 32 --dtype $dt --layout nhwc
done
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.xz && rm -f *.json *.txt *.xz; ls -la | head)
