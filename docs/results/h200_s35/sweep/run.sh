# Session 35, call 5: the final build's random sweep on the H200 (the router's choice and every
# accepting algorithm per case, validation layer on), then, every row checked:
#  - near.csv at b32 (the four layers where a k-tile came within 3 % in call 1, whose build had
#    non-uniform slice bounds): the router, 64x128x32/2x2k2 and 64x64x64/2x2k2 one pass;
#  - b1.csv (RetinaNet cls_25 / cls_out_25 / cls_out_13, VGG-16 features.24, ResNet-50
#    layer4.0.conv2) at b1: the router, 64x64x64/2x2k2 one pass, 32x64x32/2x2k4 and
#    64x64x32/2x2k4 named without a split (files *_split: the router gives k-tiles one pass
#    unless "/s<N>" forces one, so these ran one pass too).
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
D=docs/results/h200_s35/sweep
tests_validated tests_sweep.log 400 'Random/Sweep.*'
grep -cE '^\[       OK' "$OUT"/tests_sweep.log; grep -E '^\[  FAILED|Segmentation|Validation Error' "$OUT"/tests_sweep.log | head
run() { RUN_TIMEOUT=40 bench_checked new "$@"; }
run b32_auto --shapes $D/near.csv --batch 32 --dtype fp16 --layout nhwc
for t in 64x128x32/2x2k2 64x64x64/2x2k2; do
  run b32_${t//\//_} --shapes $D/near.csv --batch 32 --dtype fp16 --layout nhwc --algo implicit_gemm_coopmat --tile $t/s1
done
run b1_auto --shapes $D/b1.csv --batch 1 --dtype fp16 --layout nhwc
run b1_64x64x64_2x2k2 --shapes $D/b1.csv --batch 1 --dtype fp16 --layout nhwc --algo implicit_gemm_coopmat --tile 64x64x64/2x2k2/s1
for t in 32x64x32/2x2k4 64x64x32/2x2k4; do
  run b1_${t//\//_}_split --shapes $D/b1.csv --batch 1 --dtype fp16 --layout nhwc --algo implicit_gemm_coopmat --tile $t
done
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log && tar czf results.tgz *.json *.txt *.xz && rm -f *.json *.txt *.xz; ls)
