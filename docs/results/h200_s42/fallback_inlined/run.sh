# Session 42, call 4: winograd's output transform sums a (tile, filter) directly where its M holds a
# non-finite value, first build: the direct sums inlined at every output of the unrolled store
# loops (16-32 copies per shader), against the same binary with the test compiled away
# (VKCONV_WINOGRAD_NO_FALLBACK=1): fp16 NHWC b1 and b32, every row checked; the winograd tests with
# the validation layer.  The F(4x4) output transforms ran 2-3x slower (perf-notes 116); call 5
# (`fallback/`) keeps one copy of the direct sums per shader.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
VKCONV_WINOGRAD_NO_FALLBACK=1 RUN_TIMEOUT=90 bench_checked new fp16_nhwc_b1_old $ALL --batch 1 --dtype fp16 --layout nhwc
RUN_TIMEOUT=90 bench_checked new fp16_nhwc_b1 $ALL --batch 1 --dtype fp16 --layout nhwc
VKCONV_WINOGRAD_NO_FALLBACK=1 RUN_TIMEOUT=100 bench_checked new fp16_nhwc_b32_old $B32 --batch 32 --dtype fp16 --layout nhwc
RUN_TIMEOUT=100 bench_checked new fp16_nhwc_b32 $B32 --batch 32 --dtype fp16 --layout nhwc
LEFT=$(( 330 - ($(date +%s) - T0) ))
LEFT=$(( LEFT < 90 ? LEFT : 90 ))
[ $LEFT -gt 20 ] && tests_validated tests.log $LEFT '*inograd*'
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.xz && rm -f *.json *.txt *.xz; ls -la | head)
