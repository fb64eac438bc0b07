# Session 49, call 4: 4-byte stores of 2 filters where 2 is the most of 8, 4 and 2 that divides
# K/groups (18, 42, 126 filters: Faster R-CNN's RPN classifier, SSD's 21-class confidence head),
# beside the 4-filter stores of call 2 (perf-notes 131), against the element stores
# (VKCONV_NHWC_OUT4=0) in one binary: `narrow.csv` (3x3 at 100x100 with 18 and 42 filters, a 1x1
# RPN classifier with 18, SSD's 512 -> 126 at 38x38, each beside a multiple of 8 as a control),
# fp16 and bf16 NHWC, b32 and b1, old then new, twice at b32; every row checked.  Then the box
# heads once more (`../out4/box.csv`, fp16 NHWC b32: the 4-filter path after its rework), and the
# tests of `halo_coopmat`, `implicit_gemm_coopmat` and winograd on the matrix units with the
# validation layer (the golden plans cannot move: no layer of the suites has 2 | K/groups alone).
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
D=docs/results/h200_s49/out2
for i in 1 2; do
  for dt in fp16 bf16; do
    for b in 32 1; do
      [ $i = 2 ] && [ $b = 1 ] && continue
      VKCONV_NHWC_OUT4=0 RUN_TIMEOUT=60 bench_checked new old_${dt}_b${b}_$i --shapes $D/narrow.csv --batch $b --dtype $dt --layout nhwc
      RUN_TIMEOUT=60 bench_checked new new_${dt}_b${b}_$i --shapes $D/narrow.csv --batch $b --dtype $dt --layout nhwc
    done
  done
done
RUN_TIMEOUT=60 bench_checked new box_fp16_b32 --shapes docs/results/h200_s49/out4/box.csv --batch 32 --dtype fp16 --layout nhwc
L=$(( 480 - ($(date +%s) - T0) )); [ $L -gt 20 ] && tests_validated tests_narrow.log $L '*out2*:*out4*:*k9_*:*bf16_k20*'
L=$(( 575 - ($(date +%s) - T0) )); [ $L -gt 20 ] && tests_validated tests.log $L '*HaloCoopmat*:*CoopmatTiles*:*CoopmatShapes*:*WinogradCoopmat*-*out2*:*out4*:*k9_*:*bf16_k20*'
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.err *.xz *.csv && rm -f *.json *.txt *.err *.xz *.csv; ls -la | head)
