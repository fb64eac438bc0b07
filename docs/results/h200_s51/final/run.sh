# Session 51, call 3: the final build (raw rows in NHWC, and in NCHW at stride 1) against the
# element gather (VKCONV_FEW_COOPMAT_RAW=0), one binary: `../first.csv`'s four first layers at b32
# and all of it at b1, fp16 and bf16, NHWC and NCHW, every row checked; the kernel's tests and the
# NCHW route's with the validation layer; then the README's fp16 NHWC and bf16 NHWC columns (b32
# over the four suites the anchors time at 32, b1 over all six) with cuDNN in the same call.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
F=docs/results/h200_s51/first.csv
head -5 $F > /tmp/first4.csv
for dt in fp16 bf16; do
  for lay in nhwc nchw; do
    VKCONV_FEW_COOPMAT_RAW=0 RUN_TIMEOUT=40 bench_checked new gather_${dt}_${lay}_b32 --shapes /tmp/first4.csv --batch 32 --dtype $dt --layout $lay
    RUN_TIMEOUT=40 bench_checked new raw_${dt}_${lay}_b32 --shapes /tmp/first4.csv --batch 32 --dtype $dt --layout $lay
    VKCONV_FEW_COOPMAT_RAW=0 RUN_TIMEOUT=40 bench_checked new gather_${dt}_${lay}_b1 --shapes $F --batch 1 --dtype $dt --layout $lay
    RUN_TIMEOUT=40 bench_checked new raw_${dt}_${lay}_b1 --shapes $F --batch 1 --dtype $dt --layout $lay
  done
done
tests_validated tests.log 100 '*FewChannelsCoopmat*:*CoopmatNhwc*'
for dt in fp16 bf16; do
  RUN_TIMEOUT=120 bench_checked new ${dt}_nhwc_b32 $B32 --batch 32 --dtype $dt --layout nhwc
  RUN_TIMEOUT=80 bench_checked new ${dt}_nhwc_b1 --batch 1 --dtype $dt --layout nhwc
done
say cudnn
LEFT=$(( 590 - ($(date +%s) - T0) ))
timeout $LEFT python3 bench/torch_baseline.py --config fp16_nhwc --config bf16_nhwc --batch 1 --batch 32 --json "$OUT/cudnn.json" > "$OUT/cudnn.txt" 2> "$OUT/cudnn.err"
echo "exit $?"
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.err *.xz && rm -f *.json *.txt *.err *.xz; ls -la | head)
