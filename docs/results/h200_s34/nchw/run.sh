# Session 34, call 5: slicedk_coopmat with an NCHW output, behind coopmat_nhwc's transposes
# (16-bit NCHW layers of deep 1x1 shape at batch 1):
#  1. slicedk_coopmat's and coopmat_nhwc's tests (validation layer on);
#  2. fp16 and bf16 NCHW b1, every suite: the router without it (VKCONV_SLICEDK=0), with it,
#     without again; cuDNN fp16 / bf16 NCHW b1 in the same call.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
tests_validated tests_nchw.log 150 '*SlicedK*:*CoopmatNhwc*'
for dt in fp16 bf16; do
  VKCONV_SLICEDK=0 RUN_TIMEOUT=90 bench_checked new ${dt}_nchw_b1_off $ALL --batch 1 --dtype $dt --layout nchw
  RUN_TIMEOUT=90 bench_checked new ${dt}_nchw_b1 $ALL --batch 1 --dtype $dt --layout nchw
  VKCONV_SLICEDK=0 RUN_TIMEOUT=90 bench_checked new ${dt}_nchw_b1_off2 $ALL --batch 1 --dtype $dt --layout nchw
done
say cudnn
timeout 100 python3 bench/torch_baseline.py $ALL --config fp16_nchw --config bf16_nchw --batch 1 --json "$OUT/cudnn.json" > "$OUT/cudnn.txt" 2> "$OUT/cudnn.err"
echo "exit $?"
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log && tar czf results.tgz *.json *.txt *.err *.xz && rm -f *.json *.txt *.err *.xz; ls -la)
