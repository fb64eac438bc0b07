# Session 45, call 5: the README's NCHW batch-1 columns with this session's library (winograd's
# filter transform in the input dispatch; small 16-bit NCHW layers on plain winograd where the
# transposes cost more): fp16 and bf16 NCHW b1 on every suite, every row checked; cuDNN 9.19 fp16
# and bf16 NCHW b1 beside them.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
RUN_TIMEOUT=80 bench_checked new fp16_nchw_b1 $ALL --batch 1 --dtype fp16 --layout nchw
RUN_TIMEOUT=80 bench_checked new bf16_nchw_b1 $ALL --batch 1 --dtype bf16 --layout nchw
say cudnn
timeout 90 python3 bench/torch_baseline.py $ALL --config fp16_nchw --config bf16_nchw --batch 1 --json "$OUT/cudnn_nchw.json" > "$OUT/cudnn_nchw.txt" 2> "$OUT/cudnn_nchw.err"
echo "exit $?"
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err && rm -f *.json *.txt *.err; ls -la | head)
