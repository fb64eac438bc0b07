# Session 46, call 4: bf16 on bf16 V and U held to fp16's margins in the NCHW route questions
# (winogradBeatsTransposedDirect) against the 0.80 of before (VKCONV_NCHW_BF16_MARGIN=0), one
# binary, every row checked: bf16 NCHW b1 on the twelve layers whose H200 plans move
# (margin_b1.csv), rotated new / old / new / old, and the two b32 ones (margin_b32.csv); then the
# README's bf16 NCHW b1 column with cuDNN 9.19 bf16 NCHW b1 in the same call; then the NCHW
# routing, coopmat_nhwc and winograd tests with the validation layer.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
M="--shapes docs/results/h200_s46/margin_b1.csv --batch 1 --layout nchw --dtype bf16"
RUN_TIMEOUT=60 bench_checked new b1_new_1 $M
VKCONV_NCHW_BF16_MARGIN=0 RUN_TIMEOUT=40 bench_checked new b1_old_1 $M
RUN_TIMEOUT=40 bench_checked new b1_new_2 $M
VKCONV_NCHW_BF16_MARGIN=0 RUN_TIMEOUT=40 bench_checked new b1_old_2 $M
S="--shapes docs/results/h200_s46/margin_b32.csv --batch 32 --layout nchw --dtype bf16"
RUN_TIMEOUT=40 bench_checked new b32_new $S
VKCONV_NCHW_BF16_MARGIN=0 RUN_TIMEOUT=40 bench_checked new b32_old $S
RUN_TIMEOUT=40 bench_checked new b32_new_2 $S
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
RUN_TIMEOUT=90 bench_checked new bf16_nchw_b1 $ALL --batch 1 --dtype bf16 --layout nchw
say cudnn
timeout 90 python3 bench/torch_baseline.py $ALL --config bf16_nchw --batch 1 --json "$OUT/cudnn_bf16_nchw_b1.json" > "$OUT/cudnn_bf16_nchw_b1.txt" 2> "$OUT/cudnn_bf16_nchw_b1.err"
echo "exit $?"
LEFT=$(( 540 - ($(date +%s) - T0) ))
LEFT=$(( LEFT < 100 ? LEFT : 100 ))
[ $LEFT -gt 15 ] && tests_validated tests.log $LEFT '*Routing*:coopmat/CoopmatNhwcTiles.*:WinogradCoopmat.*:WinogradPlan.*'
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.err *.xz && rm -f *.json *.txt *.err *.xz; ls -la | head)
