# Session 25, call 4: coopmat_nhwc with the router's final rule (no first layers, no thin
# implicit_gemm_coopmat layers on inputs of 6 MiB and more, no winograd on inputs up to 1 MiB;
# fitted on call 3's rows), against the build without it (OLD_BUILD: 82fecdc), in one call with
# cuDNN fp16 and bf16 NCHW:
#  - the coopmat_nhwc, routing and coopmat layout tests with the validation layer;
#  - the device's own plans for the 16-bit NCHW rows (--plan-only), against bench/profiles;
#  - fp16 NCHW old/new at b1 on every suite and at b32 on four; bf16 NCHW b1 and b32 (new);
#  - cuDNN fp16 and bf16 NCHW at b1 and b32.
#  Every vkconv row checked against the float64 reference.
for f in .carry/bin/vkconv-bench.xz .carry/old/bin/vkconv-bench.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
tests_validated tests.log 150 '*CoopmatNhwc*:*Routing*:WinogradPlan.*:coopmat/CoopmatTiles.MatchesReference/layout_*'
run_build new --plan-only $ALL --batch 1 --batch 32 --dtype fp16 --dtype bf16 --layout nchw --csv "$OUT/online_nchw.csv" > /dev/null 2>&1
echo "plan-only exit $?"
for v in old new; do
  RUN_TIMEOUT=90 bench_checked $v nchw_b1_$v $ALL --batch 1 --dtype fp16 --layout nchw
done
for v in old new; do
  RUN_TIMEOUT=150 bench_checked $v nchw_b32_$v $B32 --batch 32 --dtype fp16 --layout nchw
done
RUN_TIMEOUT=70 bench_checked new bf16nchw_b1 $ALL --batch 1 --dtype bf16 --layout nchw
RUN_TIMEOUT=100 bench_checked new bf16nchw_b32 $B32 --batch 32 --dtype bf16 --layout nchw
(cd "$OUT" && tar czf part1.tgz *.json *.txt *.log *.csv 2>/dev/null)
say cudnn
timeout 150 python3 bench/torch_baseline.py $ALL --config fp16_nchw --config bf16_nchw --batch 1 --batch 32 --json "$OUT/cudnn_nchw.json" > "$OUT/cudnn_nchw.txt" 2> "$OUT/cudnn_nchw.err"
echo "exit $?"; grep "call floor" "$OUT/cudnn_nchw.err"
(cd "$OUT" && shopt -s nullglob && rm -f part1.tgz && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
