# Session 42, call 5 (call 4, `fallback_inlined/`, ran the first build: the direct sums inlined at
# every output, 2-3x slower F(4x4) output transforms): winograd's output transform sums a (tile, filter)
# directly where its M holds a
# non-finite value (fp16 V, U or M overflowed; perf-notes 116), against the same binary with the
# test compiled away (VKCONV_WINOGRAD_NO_FALLBACK=1): fp16 NHWC b1 and b32, every row checked; the
# winograd and packed-filter tests (the new fp16 overflow test among them) with the validation layer.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
VKCONV_WINOGRAD_NO_FALLBACK=1 RUN_TIMEOUT=90 bench_checked new fp16_nhwc_b1_old $ALL --batch 1 --dtype fp16 --layout nhwc
RUN_TIMEOUT=90 bench_checked new fp16_nhwc_b1 $ALL --batch 1 --dtype fp16 --layout nhwc
VKCONV_WINOGRAD_NO_FALLBACK=1 RUN_TIMEOUT=100 bench_checked new fp16_nhwc_b32_old $B32 --batch 32 --dtype fp16 --layout nhwc
RUN_TIMEOUT=100 bench_checked new fp16_nhwc_b32 $B32 --batch 32 --dtype fp16 --layout nhwc
LEFT=$(( 300 - ($(date +%s) - T0) ))
LEFT=$(( LEFT < 60 ? LEFT : 60 ))
[ $LEFT -gt 20 ] && tests_validated tests.log $LEFT "*winograd_coopmat*:*Fp16Overflow*:*ScaledRange*"
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.xz && rm -f *.json *.txt *.xz; ls -la | head)
