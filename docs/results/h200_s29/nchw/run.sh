# Session 29, call 6: the README's 16-bit NCHW columns on the H200 (session 28's were an H100's),
# beside cuDNN in the same call, and the workspace cap on the two layers whose winograd chunks
# (perf-notes 75): RetinaNet cls_100 / cls_out_100 b32 fp16 NHWC at the library's 512 MiB, 1 GiB
# and 2 GiB (--workspace-mib).  Every vkconv row checked.
T0=$(date +%s)
for f in .carry/bin/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
for w in 512 1024 2048; do
  RUN_TIMEOUT=40 bench_checked new ws$w --shapes bench/cases/retinanet_cls100_b32.csv --dtype fp16 --layout nhwc --workspace-mib $w
  grep -E "cls_(out_)?100" "$OUT/ws$w.txt" | head -2 | cut -c1-200
done
RUN_TIMEOUT=150 bench_checked new nchw_b32 $B32 --batch 32 --dtype fp16 --layout nchw
RUN_TIMEOUT=80 bench_checked new nchw_b1 $ALL --batch 1 --dtype fp16 --layout nchw
say cudnn
timeout 110 python3 bench/torch_baseline.py $ALL --config fp16_nchw --config bf16_nchw --batch 1 --batch 32 --json "$OUT/cudnn_nchw.json" > "$OUT/cudnn_nchw.txt" 2> "$OUT/cudnn_nchw.err"
echo "exit $?"; grep "call floor" "$OUT/cudnn_nchw.err"
LEFT=$(( 550 - ($(date +%s) - T0) ))
[ $LEFT -gt 30 ] && RUN_TIMEOUT=$(( LEFT < 90 ? LEFT : 90 )) bench_checked new bf16nchw_b1 $ALL --batch 1 --dtype bf16 --layout nchw
LEFT=$(( 560 - ($(date +%s) - T0) ))
[ $LEFT -gt 30 ] && RUN_TIMEOUT=$LEFT bench_checked new bf16nchw_b32 $B32 --batch 32 --dtype bf16 --layout nchw
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err && rm -f *.json *.txt *.err; ls)
