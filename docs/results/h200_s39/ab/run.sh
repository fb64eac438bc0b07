# Session 39, call 2: (1) the winograd refit against the build before it (a53d959, "old") on the
# layers whose golden plans flipped, fp16 NHWC (old, new, old, new) and NCHW (old, new), checked;
# (2) --packed-filters against per-call filter passes (new build, same call): fp16 NHWC on the
# layers the router sends to winograd, fp16 NCHW b1 on every suite (the KCRS->KRSC transposes);
# (3) in the time left, the packed-filter, winograd and routing tests (without the validation layer:
# it does not fit the 64 MiB beside two builds; call 3 runs them with it).
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz .carry/old/*.xz .carry/old/*/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
D=docs/results/h200_s39/ab
run() { RUN_TIMEOUT=120 bench_checked "$@"; }
for r in 1 2; do
  for v in old new; do
    run $v flip_b32_nhwc_${v}$r --shapes $D/flips_b32.csv --batch 32 --dtype fp16 --layout nhwc
    run $v flip_b1_nhwc_${v}$r --shapes $D/flips_b1.csv --batch 1 --dtype fp16 --layout nhwc
  done
done
for v in old new; do
  run $v flip_b32_nchw_$v --shapes $D/flips_b32.csv --batch 32 --dtype fp16 --layout nchw
  run $v flip_b1_nchw_$v --shapes $D/flips_b1.csv --batch 1 --dtype fp16 --layout nchw
done
for p in "" --packed-filters; do
  t=${p:+packed}; t=${t:-plain}
  run new wino_b32_$t --shapes $D/wino_b32.csv --batch 32 --dtype fp16 --layout nhwc $p
  run new wino_b1_$t --shapes $D/wino_b1.csv --batch 1 --dtype fp16 --layout nhwc $p
  RUN_TIMEOUT=150 bench_checked new nchw_b1_$t $B32 --suite sd_vae_decoder --suite rdna1_matrix --batch 1 --dtype fp16 --layout nchw $p
done
LEFT=$(( 570 - ($(date +%s) - T0) ))
if [ $LEFT -gt 30 ]; then
  say "tests (no validation layer)"
  timeout $LEFT .carry/bin/vkconv_tests --gtest_filter='*Packed*:*inograd*:*Routing*' > "$OUT/tests.log" 2>&1
  echo "vkconv_tests exit $?"; grep -E '^\[  (PASSED|FAILED|SKIPPED) +\] [0-9]+ test' "$OUT/tests.log"; grep -E '^\[  FAILED' "$OUT/tests.log" | head
fi
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.xz && rm -f *.json *.txt *.xz; ls -la)
