# Session 48, call 6 (the final build, ef7cbd9): the README's bf16 NHWC b1 and bf16 NCHW b1 columns
# after the bf16 winograd scaled fallback (perf-notes 130), every row checked, cuDNN 9.19 bf16
# NHWC and NCHW b1 beside them.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
RUN_TIMEOUT=100 bench_checked new bf16_nhwc_b1 $ALL --batch 1 --dtype bf16 --layout nhwc
RUN_TIMEOUT=130 bench_checked new bf16_nchw_b1 $ALL --batch 1 --dtype bf16 --layout nchw
say cudnn
L=$(( 560 - ($(date +%s) - T0) ))
timeout $L python3 bench/torch_baseline.py $ALL --config bf16_nhwc --config bf16_nchw --batch 1 --json "$OUT/cudnn_bf16_b1.json" > "$OUT/cudnn_bf16_b1.txt" 2> "$OUT/cudnn_bf16_b1.err"
echo "exit $?"
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err && rm -f *.json *.txt *.err; ls -la | head)
