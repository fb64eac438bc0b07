# Session 41, call 1: winograd's NCHW input transform staged through shared memory (the block's
# input rows copied in runs along the rows, then one (tile, channel) per invocation, channels
# fastest; perf-notes 112) against its element-wise path (VKCONV_WINOGRAD_NCHW_INPUT_ELEMENTS=1,
# same binary), on every 3x3 stride-1 layer of the suites (session 39's lists), per-pass times
# (--passes), every row checked: forced winograd fp16 NCHW b32 staged / elements (/ staged again at b1), the
# router as built (NCHW inputs over 1 MiB behind coopmat_nhwc's transposes), fp16 NHWC forced
# (the NHWC input pass beside it); the same at b1; fp32 NCHW b1 forced staged / elements; then the
# winograd and NCHW-routing tests with the validation layer.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
D=docs/results/h200_s41/staged
W="--algo winograd --passes"
run() { RUN_TIMEOUT=150 bench_checked "$@"; }
el() { VKCONV_WINOGRAD_NCHW_INPUT_ELEMENTS=1 run "$@"; }
for b in 32 1; do
  L="--shapes $D/wino3x3_b$b.csv --batch $b --dtype fp16"
  run new b${b}_staged1 $L --layout nchw $W
  el new b${b}_elements $L --layout nchw $W
  [ $b = 1 ] && run new b${b}_staged2 $L --layout nchw $W
  run new b${b}_auto $L --layout nchw --passes
  run new b${b}_nhwc $L --layout nhwc $W
done
run new b1_fp32_staged --shapes $D/wino3x3_b1.csv --batch 1 --dtype fp32 --layout nchw $W
el new b1_fp32_elements --shapes $D/wino3x3_b1.csv --batch 1 --dtype fp32 --layout nchw $W
tests_validated tests.log 110 'winograd*:WinogradPlan*:*CoopmatNhwc*:*Packed*'
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.log && rm -f *.json *.txt *.log; ls -la | head)
