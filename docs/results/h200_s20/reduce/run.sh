# Session 20, call 1: split-K's second pass.  (a) splitk_reduce.comp loading 8 partials before
# adding them, four outputs per invocation in 16-byte loads (VKCONV_SPLITK_REDUCE_VEC=1, the
# default) against one output per invocation (=0), same build, checked; (b) profiling
# (profile.patch, unchecked: results wrong by design): pass 1 alone (skip2), and pass 1 after
# what zeroing per-tile counters would cost, a vkCmdFillBuffer between two barriers (fill) or a
# one-workgroup dispatch and a barrier (zero): is an in-dispatch reduction by the last-arriving
# split worth building?  fp16 NHWC b1 on the five suites with split layers; fp32 NCHW b1 (a).
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
tests_validated tests.log 200 '*splitk*:SplitKPlan.*:coopmat/CoopmatTiles.*_s*:*Routing*:*Router*'
S5="$B32 --suite rdna1_matrix"
F16="$S5 --batch 1 --dtype fp16 --layout nhwc"
VKCONV_SPLITK_REDUCE_VEC=0 RUN_TIMEOUT=80 bench_checked new f16_vec0 $F16
RUN_TIMEOUT=80 bench_checked new f16_vec4 $F16
for m in skip2 fill zero; do
  say "profile $m"
  VKCONV_SPLITK_PROFILE=$m RUN_TIMEOUT=80 run_build new $F16 --json "$OUT/f16_$m.json" > "$OUT/f16_$m.txt" 2>&1
  echo "exit $?"; sed -n '/== Summary/,$p' "$OUT/f16_$m.txt" | grep -vE '^(== |suite |$)'
done
RUN_TIMEOUT=80 bench_checked new f16_vec4b $F16
F32="$B32 --suite sd_vae_decoder --suite rdna1_matrix --batch 1 --dtype fp32 --layout nchw"
VKCONV_SPLITK_REDUCE_VEC=0 RUN_TIMEOUT=90 bench_checked new f32_vec0 $F32
RUN_TIMEOUT=90 bench_checked new f32_vec4 $F32
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
