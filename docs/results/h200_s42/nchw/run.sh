# Session 42, call 3: the NCHW columns with this session's router (bf16 winograd on scaled fp16
# operands, bf16 F(2x2) on bf16 operands where modelled cheaper; perf-notes 114-115): bf16 and
# fp16 NCHW b1 and b32, every row checked; cuDNN 9.19 bf16 and fp16 NCHW b1 and b32 beside them.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
RUN_TIMEOUT=90 bench_checked new bf16_nchw_b1 $ALL --batch 1 --dtype bf16 --layout nchw
RUN_TIMEOUT=90 bench_checked new fp16_nchw_b1 $ALL --batch 1 --dtype fp16 --layout nchw
say cudnn
timeout 150 python3 bench/torch_baseline.py $ALL --config fp16_nchw --config bf16_nchw --batch 1 --batch 32 --json "$OUT/cudnn_nchw.json" > "$OUT/cudnn_nchw.txt" 2> "$OUT/cudnn_nchw.err"
echo "exit $?"
RUN_TIMEOUT=120 bench_checked new bf16_nchw_b32 $B32 --batch 32 --dtype bf16 --layout nchw
RUN_TIMEOUT=120 bench_checked new fp16_nchw_b32 $B32 --batch 32 --dtype fp16 --layout nchw
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err && rm -f *.json *.txt *.err; ls -la | head)
