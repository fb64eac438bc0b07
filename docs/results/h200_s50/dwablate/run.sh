# Session 50, call 6: what holds `depthwise` (MobileNetV2's ten depthwise layers at b32, 2.2x
# their floors since session 29).  The final build's router (checked), then a measurement build
# (`ablate.patch`, .carry/abl; VKCONV_DEPTHWISE_ABLATE bits on the NHWC path: 1 no input loads,
# 2 no products (each loaded pixel added once), 4 no stores (kept behind a test no sum passes),
# 8 no filter loads; unchecked, its outputs are wrong by design), fp16 NHWC b32 on `../dw.csv`.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz .carry/abl/bin/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
F=docs/results/h200_s50/dw.csv
RUN_TIMEOUT=60 bench_checked new router_fp16_b32 --shapes $F --batch 32 --dtype fp16 --layout nhwc
for a in 0 1 2 4 8 3 5 6 9 7 11 13 14 15 0; do
  say "ablate $a"
  VKCONV_DEPTHWISE_ABLATE=$a RUN_TIMEOUT=60 run_build abl --shapes $F --batch 32 --dtype fp16 --layout nhwc --algo depthwise --json $OUT/abl_$a.json > $OUT/abl_$a.txt 2>&1
  grep -E "^mobilenet_v2 +32 fp16" $OUT/abl_$a.txt | head -2
done
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt && rm -f *.json *.txt; ls -la | head)
