# Session 25, call 2: llama.cpp/ggml's own CONV_2D cases (bench/cases/ggml_perf.csv, each at its
# own batch) and the NCHW fp16 path, each beside cuDNN in the same call:
#  - vkconv fp16 and bf16 NHWC, fp32 NCHW on the ggml cases; cuDNN fp16/bf16 NHWC, fp32 NCHW
#    (TF32 off) on them;
#  - vkconv fp16 NCHW (activations NCHW, filters KCRS) at b1 on every suite and b32 on four, and
#    cuDNN fp16 NCHW on the same rows (issue 5: "NCHW without a cliff"; fp16 NHWC is call 1's);
#  - fp16 NHWC b32 again with cuDNN fp16 NHWC b32 (call 1's run hit its 80 s limit on the H100).
#  Every vkconv row checked against the float64 reference.
# The carried benches are xz-compressed (the 64 MiB transfer limit; .carry/old has no libvkconv:
# vkconv-bench links the library statically).
for f in .carry/bin/vkconv-bench.xz .carry/old/bin/vkconv-bench.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
RUN_TIMEOUT=60 bench_checked new ggml_16 --shapes bench/cases/ggml_perf.csv --dtype fp16 --dtype bf16 --layout nhwc
RUN_TIMEOUT=60 bench_checked new ggml_fp32 --shapes bench/cases/ggml_perf.csv --dtype fp32 --layout nchw
RUN_TIMEOUT=80 bench_checked new fp16nchw_b1 $ALL --batch 1 --dtype fp16 --layout nchw
RUN_TIMEOUT=170 bench_checked new fp16nchw_b32 $B32 --batch 32 --dtype fp16 --layout nchw
RUN_TIMEOUT=150 bench_checked new fp16_b32 $B32 --batch 32 --dtype fp16 --layout nhwc
(cd "$OUT" && tar czf part1.tgz *.json *.txt *.log *.csv 2>/dev/null)
say cudnn
timeout 45 python3 bench/torch_baseline.py --shapes bench/cases/ggml_perf.csv --config fp16_nhwc --config bf16_nhwc --config fp32_nchw --json "$OUT/cudnn_ggml.json" > "$OUT/cudnn_ggml.txt" 2> "$OUT/cudnn_ggml.err"
echo "exit $?"
timeout 120 python3 bench/torch_baseline.py $ALL --config fp16_nchw --batch 1 --batch 32 --json "$OUT/cudnn_nchw.json" > "$OUT/cudnn_nchw.txt" 2> "$OUT/cudnn_nchw.err"
echo "exit $?"; grep "call floor" "$OUT/cudnn_nchw.err"
timeout 60 python3 bench/torch_baseline.py $B32 --config fp16_nhwc --batch 32 --json "$OUT/cudnn_b32.json" > "$OUT/cudnn_b32.txt" 2> "$OUT/cudnn_b32.err"
echo "exit $?"
(cd "$OUT" && shopt -s nullglob && rm -f part1.tgz && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
