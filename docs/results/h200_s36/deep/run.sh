# Session 36, call 2: 128-deep slices for one-wave grids (64x64x128/2x4s1, 32x64x128/2x2s1) and a
# 64-deep two-group k-tile (32x64x64/2x2k2), forced, against the router; fp16 NHWC, every row checked:
#  1. their tile tests (validation layer on);
#  2. b1.csv (27 split / deep b1 layers, item 97's set): the router, then each new tile one pass
#     and (the 128-deep ones) with 2 and 4 splits;
#  3. b32.csv (27 small-grid b32 layers): the router, then each new tile one pass.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
D=docs/results/h200_s36/deep
tests_validated tests_deep.log 120 '*CoopmatTiles*x128_*:*CoopmatTiles*32x64x64_2x2k2*'
run() { RUN_TIMEOUT=60 bench_checked new "$@"; }
run b1_auto --shapes $D/b1.csv --batch 1 --dtype fp16 --layout nhwc
for t in 64x64x128/2x4s1 32x64x128/2x2s1; do for s in 1 2 4; do
  run b1_${t//\//_}_s$s --shapes $D/b1.csv --batch 1 --dtype fp16 --layout nhwc --algo implicit_gemm_coopmat --tile $t/s$s
done; done
run b1_32x64x64_2x2k2 --shapes $D/b1.csv --batch 1 --dtype fp16 --layout nhwc --algo implicit_gemm_coopmat --tile 32x64x64/2x2k2/s1
run b32_auto --shapes $D/b32.csv --batch 32 --dtype fp16 --layout nhwc
for t in 64x64x128/2x4s1 32x64x128/2x2s1 32x64x64/2x2k2; do
  run b32_${t//\//_} --shapes $D/b32.csv --batch 32 --dtype fp16 --layout nhwc --algo implicit_gemm_coopmat --tile $t/s1
done
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log && tar czf results.tgz *.json *.txt *.xz && rm -f *.json *.txt *.xz; ls -la)
