# Session 37, call 5: late loads (the shader's LATE_LOAD, tiles "...L": the next slice loaded after
# the products, no staging register live beside them), forced, fp16 NHWC b32, checked:
#  1. their tile tests (validation layer on);
#  2. NVIDIA's register counts (--shader-stats --tile);
#  3. ceiling/big.csv (three big layers): each L tile and its preloading sibling where one exists;
#  4. the b32 suites: the router, then each L tile forced (one pass).
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
tests_validated tests_late.log 150 '*CoopmatTiles*2x2L*:*CoopmatTiles*2x4L*'
for t in 128x128x32/2x2L 128x64x32/2x2L 128x128x32/2x4L 128x64x32/2x2 128x128x32/2x4; do
  timeout 60 $C/bin/vkconv-bench --shader-stats --algo implicit_gemm_coopmat --tile $t > "$OUT/stats_${t//\//_}.txt" 2>&1
  echo "stats $t: $(grep -E 'implicit_gemm_coopmat_f16 ' $OUT/stats_${t//\//_}.txt | head -2 | awk '{print $5, $6, $NF}' | tr '\n' ' ')"
done
run() { RUN_TIMEOUT=90 bench_checked new "$@"; }
D=docs/results/h200_s37/ceiling
for t in 128x128x32/2x2L 128x64x32/2x2L 128x128x32/2x4L 128x64x32/2x2 128x128x32/2x4 128x256x32/2x4s1; do
  run big_${t//\//_} --shapes $D/big.csv --batch 32 --dtype fp16 --layout nhwc --algo implicit_gemm_coopmat --tile $t/s1
done
run b32_auto $B32 --batch 32 --dtype fp16 --layout nhwc
for t in 128x128x32/2x2L 128x64x32/2x2L 128x128x32/2x4L; do
  run b32_${t//\//_} $B32 --batch 32 --dtype fp16 --layout nhwc --algo implicit_gemm_coopmat --tile $t/s1
done
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log && tar czf results.tgz *.json *.txt *.xz && rm -f *.json *.txt *.xz; ls -la)
# As run: b32_auto timed out at RUN_TIMEOUT=90 (the router on the four b32 suites takes longer;
# the router's numbers beside these are session 34's h200_s34/final); the MobileNetV2 rows the L
# tiles decline (C/groups of 16 or 144: not a multiple of their 32-value slice) are the 3 errors
# of each forced run.  The library change is late_load.patch (not kept, perf-notes 100).
