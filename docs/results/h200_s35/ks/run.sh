# Session 35, call 1: implicit_gemm_coopmat's sliced-K tiles (perf-notes 97), forced, against the
# router, fp16 NHWC; every row checked.
#  1. the sliced-K tile tests (every CoopmatTiles case x the eight k-tiles, validation layer on);
#  2. NVIDIA's register counts of the k-tiles (--shader-stats);
#  3. b32.csv (ResNet-50 layer3-4, RetinaNet 13x13 / 7x7 cls, MobileNetV2's 14x14 / 7x7 1x1 layers)
#     at b32: the router, then each k-tile one pass (/s1);
#  4. b1.csv (ResNet-50's split and deep layers, RetinaNet 25-7, VGG-16 features.24, RDNA1 4) at b1:
#     the router, then the six k-tiles of up to 64x64 one pass, 64x64x32/2x2k4 with the model's split.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
D=docs/results/h200_s35/ks
tests_validated tests_ks.log 100 '*CoopmatTiles*k2*:*CoopmatTiles*k4*'
say "shader stats"
for t in 64x64x32/2x2k 64x128x32/2x2k2 128x128x32/2x2k2; do
  timeout 25 $C/bin/vkconv-bench --shader-stats --algo implicit_gemm_coopmat --tile $t > "$OUT/stats_${t//\//_}.txt" 2>&1
  grep -E "f16 .*nhwc->nhwc krsc" "$OUT/stats_${t//\//_}.txt" | cut -c1-240 | head -4
done
run() { RUN_TIMEOUT=60 bench_checked new "$@"; }
run b32_auto --shapes $D/b32.csv --batch 32 --dtype fp16 --layout nhwc
for t in 32x64x32/2x2k2 32x64x32/2x2k4 64x64x32/2x2k2 64x64x32/2x2k4 64x64x64/2x2k2 64x128x32/2x2k2 128x64x32/2x2k2 128x128x32/2x2k2; do
  run b32_${t//\//_} --shapes $D/b32.csv --batch 32 --dtype fp16 --layout nhwc --algo implicit_gemm_coopmat --tile $t/s1
done
run b1_auto --shapes $D/b1.csv --batch 1 --dtype fp16 --layout nhwc
for t in 32x64x32/2x2k2 32x64x32/2x2k4 64x64x32/2x2k2 64x64x32/2x2k4 64x64x64/2x2k2; do
  run b1_${t//\//_} --shapes $D/b1.csv --batch 1 --dtype fp16 --layout nhwc --algo implicit_gemm_coopmat --tile $t/s1
done
run b1_64x64x32_2x2k4_split --shapes $D/b1.csv --batch 1 --dtype fp16 --layout nhwc --algo implicit_gemm_coopmat --tile 64x64x32/2x2k4
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log && tar czf results.tgz *.json *.txt *.xz && rm -f *.json *.txt *.xz; ls -la)
