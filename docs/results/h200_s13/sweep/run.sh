# Session 13, call 6: few_channels_coopmat tiles forced (column block width, rows, row steps),
# each with the next step's halo prefetched and without (VKCONV_FEW_COOPMAT_PREFETCH=1/0), on the
# suites' first layers plus two RDNA1-matrix rows, fp16 NHWC b32, checked.
# Packed with scripts/device_pack.sh build-dev; run as OUT=... bash .carry/run.sh
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
for t in auto 2x64x64/1x2p4 4x64x64/1x2p2 4x64x64/1x2p4 4x32x64/1x2 4x32x64/1x2p2 4x32x64/1x2p4 8x32x32/1x1 8x32x32/1x1p2 8x32x32/1x1p4; do
  for pf in 0 1; do
    n=$(echo "$t" | tr '/' '_')_pf$pf; tile="--tile $t"; [ "$t" = auto ] && tile=
    VKCONV_FEW_COOPMAT_PREFETCH=$pf run_build new --shapes docs/results/h200_s13/sweep/first6.csv --batch 32 --dtype fp16 --layout nhwc \
      --algo few_channels_coopmat $tile --check --warmup-ms 200 --json "$OUT/tile_$n.json" > "$OUT/tile_$n.txt" 2>&1
    echo "$t pf$pf exit $? $(grep -E '^(resnet50|vgg16|mobilenet_v2|sd_vae|rdna1)' "$OUT/tile_$n.txt" | awk '{printf "%s=%s ", $2, $7}')"
  done
done
(cd "$OUT" && tar czf results-sweep.tgz tile_* && rm -f tile_* results-none.tgz; ls)
