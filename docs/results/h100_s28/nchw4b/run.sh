# Session 28, call 4: the final rule for implicit_gemm_coopmat's NCHW runs of 4 (4 | P*Q, 8 does
# not; not on the 16-subgroup tiles, which call 2 found 2-9 % slower with them), one binary, the
# session-27 rule by VKCONV_NCHW_RUNS=8:
#  - the runs-of-4 tests, validation layer on (now with 256x64x64/4x4s1: the element stores);
#  - bench/cases/nchw_runs4.csv at b1 and b32, new / old;
#  - fp16 NCHW b32 on ResNet-50 and MobileNetV2 (the suites with such layers on direct tiles),
#    bf16 NCHW b32 on the four batch suites (session 27's final code, unmeasured until now);
#    cuDNN fp16 and bf16 NCHW b32 on the same rows.
# Every vkconv row checked against the float64 reference.
T0=$(date +%s)
for f in .carry/bin/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
tests_validated tests.log 90 '*runs4*:*nchw_out*'
R4="--shapes bench/cases/nchw_runs4.csv --batch 1 --batch 32 --dtype fp16 --layout nchw"
RUN_TIMEOUT=60 bench_checked new r4_new $R4
VKCONV_NCHW_RUNS=8 RUN_TIMEOUT=60 bench_checked new r4_old $R4
RUN_TIMEOUT=80 bench_checked new nchw_b32 --suite resnet50 --suite mobilenet_v2 --batch 32 --dtype fp16 --layout nchw
say cudnn
timeout 80 python3 bench/torch_baseline.py $B32 --config fp16_nchw --config bf16_nchw --batch 32 --json "$OUT/cudnn_nchw.json" > "$OUT/cudnn_nchw.txt" 2> "$OUT/cudnn_nchw.err"
echo "exit $?"; grep "call floor" "$OUT/cudnn_nchw.err"
LEFT=$(( 450 - ($(date +%s) - T0) ))
[ $LEFT -gt 30 ] && RUN_TIMEOUT=$LEFT bench_checked new bf16nchw_b32 $B32 --batch 32 --dtype bf16 --layout nchw
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log && rm -f *.json *.txt *.err *.log; ls)
