# Session 50, call 4: the final build (B in registers on tiles of at most 4 rows, 4-row tiles for
# 32 filters on large grids, up to 8 row steps; perf-notes 133) against the build before it
# (.carry/old, HEAD 'abeb424'): `../sweep.csv` at b32, fp16 and bf16, NHWC and NCHW (NHWC twice),
# `../first.csv` and the RDNA1 matrix at b1; every row checked.  Then the README's fp16 NHWC and
# bf16 NHWC b32 columns with cuDNN 9.19 in the same call, and the kernel's tests and the NCHW
# route's with the validation layer.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz .carry/old/bin/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
S=docs/results/h200_s50/sweep.csv F=docs/results/h200_s50/first.csv
for i in 1 2; do
  for dt in fp16 bf16; do
    for lay in nhwc nchw; do
      [ $i = 2 ] && [ $lay = nchw ] && continue
      for v in old new; do RUN_TIMEOUT=60 bench_checked $v ${v}_${dt}_${lay}_b32_$i --shapes $S --batch 32 --dtype $dt --layout $lay; done
    done
  done
done
for dt in fp16 bf16; do
  for lay in nhwc nchw; do
    for v in old new; do RUN_TIMEOUT=60 bench_checked $v ${v}_${dt}_${lay}_b1 --shapes $F --batch 1 --dtype $dt --layout $lay; done
  done
done
for v in old new; do RUN_TIMEOUT=60 bench_checked $v ${v}_fp16_nhwc_b1_rdna1 --suite rdna1_matrix --batch 1 --dtype fp16 --layout nhwc; done
tests_validated tests.log 90 '*FewChannelsCoopmat*:*CoopmatNhwc*'
RUN_TIMEOUT=150 bench_checked new fp16_nhwc_b32 $B32 --batch 32 --dtype fp16 --layout nhwc
RUN_TIMEOUT=150 bench_checked new bf16_nhwc_b32 $B32 --batch 32 --dtype bf16 --layout nhwc
say cudnn
LEFT=$(( 590 - ($(date +%s) - T0) ))
timeout $LEFT python3 bench/torch_baseline.py $B32 --config fp16_nhwc --config bf16_nhwc --batch 32 --json "$OUT/cudnn_b32.json" > "$OUT/cudnn_b32.txt" 2> "$OUT/cudnn_b32.err"
echo "exit $?"
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.err *.xz && rm -f *.json *.txt *.err *.xz; ls -la | head)
