# Session 11, call 2: (a) ResNet-50 fp32 NCHW b32/b1, old = 32331af, new = this build (stride-2 1x1
# 4-pixel loads); (b) forced-tile sweep at batch 1 (fp32 NCHW, MobileNetV2, ResNet-50, RDNA1 matrix):
# BK 8/16/32 tiles, one pass and split-K, for the latency-bound small grids; (c) tests.
# Packed with OLD_BUILD=<32331af build> scripts/device_pack.sh build-dev; run as OUT=... bash .carry/run.sh
source scripts/device_run.sh none > /dev/null 2>&1
for b in 32 1; do for v in old new; do
  say "resnet50 b$b $v"
  run_build $v --suite resnet50 --batch $b --dtype fp32 --layout nchw --check --json "$OUT/rn_b${b}_$v.json" > "$OUT/rn_b${b}_$v.txt" 2>&1
  echo "exit $?"; sed -n '/== Summary/,$p' "$OUT/rn_b${b}_$v.txt" | sed -n 2p
done; done
S="--suite mobilenet_v2 --suite resnet50 --suite rdna1_matrix --batch 1 --dtype fp32 --layout nchw --check --warmup-ms 50"
for t in 128x64x8/8x4 128x64x16/8x4 128x64x32/8x4 64x32x32/4x4 64x16x8/4x4; do
  n=${t//\//_}
  for a in implicit_gemm implicit_gemm_splitk; do
    say "$a $t"
    run_build new $S --algo $a --tile $t --json "$OUT/sw_${a}_$n.json" > "$OUT/sw_${a}_$n.txt" 2>&1; echo "exit $?"
  done
done
say "auto b1"
run_build new $S --json "$OUT/sw_auto.json" > "$OUT/sw_auto.txt" 2>&1; echo "exit $?"
tests_validated tests_sw.log 100 '*FourPixel*:*IgemmTiles*:All/Edges*__implicit_gemm'
(cd "$OUT" && tar czf results-sw.tgz *.json *.txt && rm -f *.json *.txt)
