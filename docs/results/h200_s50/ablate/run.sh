# Session 50, call 1: what holds few_channels_coopmat (the first-layer kernel) at b32.  The suites'
# first layers (`../first.csv`), fp16 NHWC b32: the router twice (checked); the ablation build
# (`ablate.patch`, .carry/abl; VKCONV_FEW_COOPMAT_ABLATE bits: 1 no halo loads, 2 no products,
# 4 no output stores, 8 no filter loads; unchecked, its outputs are wrong by design); forced tiles
# (checked); NVIDIA's registers and machine code of the kernel's variants.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz .carry/abl/bin/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
F=docs/results/h200_s50/first.csv
for i in 1 2; do RUN_TIMEOUT=60 bench_checked new router_fp16_b32_$i --shapes $F --batch 32 --dtype fp16 --layout nhwc; done
for a in 0 1 2 4 8 3 5 6 9 7 11 13 14 15 0; do
  say "ablate $a"
  VKCONV_FEW_COOPMAT_ABLATE=$a RUN_TIMEOUT=60 run_build abl --shapes $F --batch 32 --dtype fp16 --layout nhwc --json $OUT/abl_$a.json > $OUT/abl_$a.txt 2>&1
  grep -E "^(resnet50|vgg16|mobilenet_v2|sd_vae)" $OUT/abl_$a.txt | awk '{print $1, $2, $7}' | head -4
done
for t in 4x32x32/1x1p4 2x32x32/1x1p4 8x16x32/1x1p4 4x16x64/1x2p4 4x32x64/1x2p2 4x32x64/1x2 8x32x32/1x1 8x32x32/1x1p4 4x64x32/2x1p2; do
  RUN_TIMEOUT=40 bench_checked new tile_${t//\//_} --shapes $F --batch 32 --dtype fp16 --layout nhwc --algo few_channels_coopmat --tile $t
done
say "shader stats"
timeout 120 $B --shader-stats --algo few_channels_coopmat --isa $OUT/isa --json $OUT/stats.json > $OUT/stats.txt 2>&1; echo "exit $?"
grep -iE "few_channels.*(reg|spill)" $OUT/stats.txt | head -20
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar czf isa.tgz isa && rm -rf isa; tar czf results.tgz *.json *.txt *.tgz && rm -f *.json *.txt; ls -la | head)
