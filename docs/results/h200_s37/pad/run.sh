# Session 37, call 11: does declaring more shared memory slow a real matrix kernel as it slows the
# probe (call 10: four-subgroup layouts 546-560 -> 326-456 TFLOP/s from 32 KiB declared)?
# fp16 NHWC, forced one pass, checked:
#  1. the new forced-only 64x64x64/2x4s1 (18 KiB single-buffered) tile tests (validation on);
#  2. ceiling/big.csv (3 big b32 layers) and probe/b1.csv (27 b1 layers): 64x64x32/2x4 (18 KiB,
#     two resident) and 128x64x32/2x2 (27 KiB) with VKCONV_COOPMAT_SMEM_PAD_KIB unset / 34 / 46;
#     64x64x64/2x4 (34 KiB) against 64x64x64/2x4s1.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
tests_validated tests_s1.log 100 '*CoopmatTiles*64x64x64_2x4s1*'
run() { RUN_TIMEOUT=60 bench_checked new "$@"; }
for b in 32 1; do
  S=docs/results/h200_s37/ceiling/big.csv; [ $b = 1 ] && S=docs/results/h200_s37/probe/b1.csv
  for t in 64x64x32/2x4 128x64x32/2x2; do for pad in 0 34 46; do
    VKCONV_COOPMAT_SMEM_PAD_KIB=$pad run b${b}_${t//\//_}_pad$pad --shapes $S --batch $b --dtype fp16 --layout nhwc --algo implicit_gemm_coopmat --tile $t/s1
  done; done
  for t in 64x64x64/2x4 64x64x64/2x4s1; do
    run b${b}_${t//\//_} --shapes $S --batch $b --dtype fp16 --layout nhwc --algo implicit_gemm_coopmat --tile $t/s1
  done
done
timeout 60 $C/bin/vkconv-bench --shader-stats --algo implicit_gemm_coopmat --tile 64x64x64/2x4 > $OUT/stats.txt 2>&1
grep -E "implicit_gemm_coopmat_f16 " $OUT/stats.txt | head -4 | cut -c1-160
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log && tar czf results.tgz *.json *.txt *.xz && rm -f *.json *.txt *.xz; ls -la)
# As run: the build had a forced-only tile 64x64x64/2x4s1 (64x64x64/2x4 single-buffered, 18 KiB:
# {"64x64x64/2x4s1", 64, 64, 2 * kSliceK, 2, 4, 1, 0, 1, 0, kUnrated} in kCmTiles and two
# CoopmatTiles names); not kept (perf-notes 102).  VKCONV_COOPMAT_SMEM_PAD_KIB is kept.
