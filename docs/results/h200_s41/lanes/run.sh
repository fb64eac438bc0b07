# Session 41, call 4: the staged NCHW input transform rebuilt around 32-lane groups (phase 1: each group
# copies whole input rows of a few channels, lanes along the columns, every offset a constant of
# the unrolled loops plus bases: RADV counts 993 instructions for fp32 F(4x4), 2083 in call 3)
# against the
# element-wise path (VKCONV_WINOGRAD_NCHW_INPUT_ELEMENTS=1), same binary, winograd forced on call
# 1's lists, --passes, every row checked: fp16 NCHW b1 and b32, fp32 NCHW b1; then the router on
# the same lists, as built (16-bit NCHW inputs over 1 MiB behind coopmat_nhwc's transposes when the
# NHWC pick is winograd) and with VKCONV_NCHW_PLAIN_WINOGRAD=1 (plain winograd there); the
# winograd and NCHW-routing tests with the validation layer.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
D=docs/results/h200_s41/staged
W="--algo winograd --passes"
run() { RUN_TIMEOUT=150 bench_checked "$@"; }
L1="--shapes $D/wino3x3_b1.csv --batch 1 --layout nchw --passes"
L32="--shapes $D/wino3x3_b32.csv --batch 32 --layout nchw --passes"
run new b1_staged $L1 --dtype fp16 --algo winograd
VKCONV_WINOGRAD_NCHW_INPUT_ELEMENTS=1 run new b1_elements $L1 --dtype fp16 --algo winograd
run new b32_staged $L32 --dtype fp16 --algo winograd
VKCONV_WINOGRAD_NCHW_INPUT_ELEMENTS=1 run new b32_elements $L32 --dtype fp16 --algo winograd
run new b1_fp32_staged $L1 --dtype fp32 --algo winograd
VKCONV_WINOGRAD_NCHW_INPUT_ELEMENTS=1 run new b1_fp32_elements $L1 --dtype fp32 --algo winograd
run new b32_auto $L32 --dtype fp16
VKCONV_NCHW_PLAIN_WINOGRAD=1 run new b32_plain $L32 --dtype fp16
run new b1_auto $L1 --dtype fp16
VKCONV_NCHW_PLAIN_WINOGRAD=1 run new b1_plain $L1 --dtype fp16
tests_validated tests.log 100 'winograd*:WinogradPlan*:*CoopmatNhwc*:*Packed*'
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.log && rm -f *.json *.txt *.log; ls -la | head)
