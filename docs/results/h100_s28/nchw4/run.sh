# Session 28, call 2: implicit_gemm_coopmat's NCHW runs of 4 where 4 but not 8 divides P*Q
# (perf-notes item 68), the per-call floor under five barrier forms, and the 16-bit NCHW columns.
# One binary; the session-27 rule (runs only where 8 divides P*Q) by VKCONV_NCHW_RUNS=8:
#  - vkconv-bench --peak with VKCONV_PEAK_BARRIER_FORMS=1 (diagnostic floor rows);
#  - the NCHW-output tests, validation layer on;
#  - bench/cases/nchw_runs4.csv (the 17 affected layers) at b1 and b32, new / old / new;
#  - fp16 NCHW at b32 on the four batch suites and b1 on every suite, new; cuDNN fp16 and bf16
#    NCHW on the same rows; bf16 NCHW b1 in the time left.
# Every vkconv row checked against the float64 reference.
T0=$(date +%s)
for f in .carry/bin/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
say peak
VKCONV_PEAK_BARRIER_FORMS=1 timeout 120 $C/bin/vkconv-bench --peak > "$OUT/peak.txt" 2>&1; echo "exit $?"
grep -E "call floor|dispatch alone" "$OUT/peak.txt"
tests_validated tests.log 120 '*nchw_out*:*runs4*'
R4="--shapes bench/cases/nchw_runs4.csv --batch 1 --batch 32 --dtype fp16 --layout nchw"
RUN_TIMEOUT=60 bench_checked new r4_new $R4
VKCONV_NCHW_RUNS=8 RUN_TIMEOUT=60 bench_checked new r4_old $R4
RUN_TIMEOUT=60 bench_checked new r4_new2 $R4
RUN_TIMEOUT=150 bench_checked new nchw_b32 $B32 --batch 32 --dtype fp16 --layout nchw
RUN_TIMEOUT=80 bench_checked new nchw_b1 $ALL --batch 1 --dtype fp16 --layout nchw
say cudnn
timeout 100 python3 bench/torch_baseline.py $ALL --config fp16_nchw --config bf16_nchw --batch 1 --batch 32 --json "$OUT/cudnn_nchw.json" > "$OUT/cudnn_nchw.txt" 2> "$OUT/cudnn_nchw.err"
echo "exit $?"; grep "call floor" "$OUT/cudnn_nchw.err"
LEFT=$(( 540 - ($(date +%s) - T0) ))
[ $LEFT -gt 30 ] && RUN_TIMEOUT=$LEFT bench_checked new bf16nchw_b1 $ALL --batch 1 --dtype bf16 --layout nchw
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log && rm -f *.json *.txt *.err *.log; ls)
