# Session 41, call 2: the staged NCHW input transform with channel blocks fastest in the block
# order (call 1 had them slowest, and its build carried a test mutation: every image but the first
# read as padding at b32, so call 1's b32 rows failed their checks), against the element-wise path
# (VKCONV_WINOGRAD_NCHW_INPUT_ELEMENTS=1) and with 64 / 16 channels per block
# (VKCONV_WINOGRAD_NCHW_INPUT_CC), same binary, winograd forced on call 1's lists, --passes, every
# row checked: fp16 NCHW b1 staged / elements / cc64 / cc16 / staged, b32 staged / elements /
# cc64; fp32 NCHW b1 staged / elements; the winograd and NCHW-routing tests (validation layer).
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
D=docs/results/h200_s41/staged
W="--algo winograd --passes"
run() { RUN_TIMEOUT=150 bench_checked "$@"; }
L1="--shapes $D/wino3x3_b1.csv --batch 1 --layout nchw $W"
L32="--shapes $D/wino3x3_b32.csv --batch 32 --layout nchw $W"
run new b1_staged1 $L1 --dtype fp16
VKCONV_WINOGRAD_NCHW_INPUT_ELEMENTS=1 run new b1_elements $L1 --dtype fp16
VKCONV_WINOGRAD_NCHW_INPUT_CC=64 run new b1_cc64 $L1 --dtype fp16
VKCONV_WINOGRAD_NCHW_INPUT_CC=16 run new b1_cc16 $L1 --dtype fp16
run new b1_staged2 $L1 --dtype fp16
run new b32_staged $L32 --dtype fp16
VKCONV_WINOGRAD_NCHW_INPUT_ELEMENTS=1 run new b32_elements $L32 --dtype fp16
VKCONV_WINOGRAD_NCHW_INPUT_CC=64 run new b32_cc64 $L32 --dtype fp16
run new b1_fp32_staged $L1 --dtype fp32
VKCONV_WINOGRAD_NCHW_INPUT_ELEMENTS=1 run new b1_fp32_elements $L1 --dtype fp32
tests_validated tests.log 100 'winograd*:WinogradPlan*:*CoopmatNhwc*:*Packed*'
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.log && rm -f *.json *.txt *.log; ls -la | head)
