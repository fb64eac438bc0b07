# Session 25, call 3: 16-bit NCHW activations behind transposes to the NHWC matrix kernels
# (coopmat_nhwc), against the build before it (OLD_BUILD: call 1's and 2's build, 82fecdc), in one
# call with cuDNN fp16 NCHW:
#  - the coopmat_nhwc tests, the routing tests and the coopmat layout tests with the validation layer;
#  - fp16 NCHW (activations NCHW, filters KCRS) old/new at b1 on every suite and at b32 on four;
#  - coopmat_nhwc forced at b32 (every layer whose NHWC problem runs on the matrix units, first
#    layers included, which the router leaves on few_channels_coopmat's own NCHW staging);
#  - bf16 NCHW b1 (new); cuDNN fp16 NCHW at b1 and b32.
#  Every vkconv row checked against the float64 reference.
for f in .carry/bin/vkconv-bench.xz .carry/old/bin/vkconv-bench.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
tests_validated tests.log 150 '*CoopmatNhwc*:*Routing*:WinogradPlan.*:coopmat/CoopmatTiles.MatchesReference/layout_*'
for v in old new; do
  RUN_TIMEOUT=90 bench_checked $v nchw_b1_$v $ALL --batch 1 --dtype fp16 --layout nchw
done
for v in old new; do
  RUN_TIMEOUT=150 bench_checked $v nchw_b32_$v $B32 --batch 32 --dtype fp16 --layout nchw
done
RUN_TIMEOUT=90 bench_checked new nchw_b32_forced $B32 --batch 32 --dtype fp16 --layout nchw --algo coopmat_nhwc
RUN_TIMEOUT=60 bench_checked new bf16nchw_b1 $ALL --batch 1 --dtype bf16 --layout nchw
(cd "$OUT" && tar czf part1.tgz *.json *.txt *.log 2>/dev/null)
say cudnn
timeout 120 python3 bench/torch_baseline.py $ALL --config fp16_nchw --batch 1 --batch 32 --json "$OUT/cudnn_nchw.json" > "$OUT/cudnn_nchw.txt" 2> "$OUT/cudnn_nchw.err"
echo "exit $?"; grep "call floor" "$OUT/cudnn_nchw.err"
(cd "$OUT" && shopt -s nullglob && rm -f part1.tgz && tar czf results.tgz *.json *.txt *.err *.log && rm -f *.json *.txt *.err *.log; ls)
