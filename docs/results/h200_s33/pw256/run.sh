# Session 33, call 2: pointwise_coopmat past 64 channels and with 256-filter slabs (accepted,
# not routed; perf-notes 93), and the suites with the fp16 scratch beside cuDNN:
#  1. pointwise_coopmat's tests (validation on): cases of 96 and 200 channels, a 256-filter tile;
#  2. the 1x1 stride-1 layers of 65-256 channels and the 64-channel ones in several slabs
#     (layers.csv), fp16 NHWC b32: the router's plan, pointwise_coopmat's heuristic and five forced
#     tiles, every row checked;
#  3. fp16 NHWC b32 ($B32) and b1 (every suite) with the router, and cuDNN (fp16 NHWC b1, b32);
#  4. step 2 at b1 in the time left.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
L=docs/results/h200_s33/pw256/layers.csv
tests_validated tests_pw.log 80 '*Pointwise*'
sweep() {  # sweep BATCH
  RUN_TIMEOUT=40 bench_checked new b$1_auto --shapes $L --batch $1 --dtype fp16 --layout nhwc
  RUN_TIMEOUT=40 bench_checked new b$1_pw --shapes $L --batch $1 --dtype fp16 --layout nhwc --algo pointwise_coopmat
  for t in 16x32/4 16x64/2 16x64/1 32x32/4 16x256/2; do
    RUN_TIMEOUT=40 bench_checked new b$1_pw_${t//\//_} --shapes $L --batch $1 --dtype fp16 --layout nhwc --algo pointwise_coopmat --tile $t
  done
}
sweep 32
RUN_TIMEOUT=150 bench_checked new suites_fp16_b32 $B32 --batch 32 --dtype fp16 --layout nhwc
RUN_TIMEOUT=80 bench_checked new suites_fp16_b1 $ALL --batch 1 --dtype fp16 --layout nhwc
say cudnn
timeout 110 python3 bench/torch_baseline.py $ALL --config fp16_nhwc --batch 1 --batch 32 --json "$OUT/cudnn.json" > "$OUT/cudnn.txt" 2> "$OUT/cudnn.err"
echo "exit $?"; grep "call floor" "$OUT/cudnn.err"
LEFT=$(( 560 - ($(date +%s) - T0) ))
[ $LEFT -gt 120 ] && sweep 1
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log && tar czf results.tgz *.json *.txt *.err *.xz && rm -f *.json *.txt *.err *.xz; ls -la)
