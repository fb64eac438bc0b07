# Session 13, call 4: few_channels_coopmat loading the next row step's halo while the current one
# is multiplied ("pre").  (a) tests through the kernel, validation on; (b) first layers fp16 NHWC
# b32 and b1, router, old build (b715b6b, without it) against new, alternating; (c) a
# forced-tile sweep (column block width, rows, row steps) on the four suites' first layers, b32.
# Packed with OLD_BUILD=<HEAD build> scripts/device_pack.sh build-dev; run as OUT=... bash .carry/run.sh
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
# (a) ran in the first attempt of this call: 61 passed, validation on (tests.log)
F="--shapes docs/results/h200_s12/few/first_layers.csv --check --dtype fp16 --layout nhwc"
for b in 32 1; do for v in old new old new; do
  say "first layers b$b $v"
  run_build $v $F --batch $b --json "$OUT/first_b${b}_$v.json" > "$OUT/first_b${b}_$v.txt" 2>&1
  echo "exit $? $(grep -E '^(resnet50|vgg16|mobilenet_v2|sd_vae|rdna1)' "$OUT/first_b${b}_$v.txt" | awk '{printf "%s=%s ", $2, $7}')"
done; done
for t in 2x64x64/1x2 2x64x64/1x2p2 2x64x64/1x2p4 4x64x64/1x2 4x64x64/1x2p2 4x64x64/1x2p4 4x32x64/1x2 4x32x64/1x2p2 \
         4x32x64/1x2p4 8x32x32/1x1 8x32x32/1x1p2 8x32x32/1x1p4 8x64x32/1x1p2 2x32x64/1x2p4; do
  n=$(echo "$t" | tr '/' '_')
  run_build new --shapes docs/results/h200_s13/fccm/first4.csv --batch 32 --dtype fp16 --layout nhwc \
    --algo few_channels_coopmat --tile "$t" --check --warmup-ms 200 --json "$OUT/tile_$n.json" > "$OUT/tile_$n.txt" 2>&1
  echo "$t exit $? $(grep -E '^(resnet50|vgg16|mobilenet_v2|sd_vae)' "$OUT/tile_$n.txt" | awk '{printf "%s=%s ", $2, $7}') $(grep -c ' pre ' "$OUT/tile_$n.txt")"
done
(cd "$OUT" && tar czf results-pre.tgz *.json *.txt *.log && rm -f *.json *.txt *.log *.err; ls)
