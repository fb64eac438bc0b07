# Session 38, call 3: winograd's transforms (perf-notes 104).  New: the NHWC input transform
# accumulates B^T d one input row at a time (not the whole patch live beside it) and reads
# interior patches without a bounds check per value; the filter transform moves two channels per
# invocation (KRSC, even C/groups).  Old: the build before (615bd35, .carry/old).  Same plans
# (the config string says "pairs finout" for "pairs inout").  fp16 NHWC, router, checked, with
# --passes, alternating new / old twice; then the winograd tests (no validation layer: with the old
# build it would not fit the 64 MiB carried; it ran in call 4).
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz .carry/old/bin/*.xz .carry/old/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
run() { RUN_TIMEOUT=150 bench_checked "$@"; }
for p in 1 2; do for v in new old; do
  run $v b32_${v}_$p --suite vgg16 --suite retinanet_head --batch 32 --dtype fp16 --layout nhwc --passes
  run $v b1_${v}_$p --suite sd_vae_decoder --batch 1 --dtype fp16 --layout nhwc --passes
done; done
say tests; timeout 200 $C/bin/vkconv_tests --gtest_filter='*inograd*' > $OUT/tests_wino.log 2>&1; echo "exit $?"; grep -E '^\[  (PASSED|FAILED|SKIPPED) +\] [0-9]+ test' $OUT/tests_wino.log
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log && tar czf results.tgz *.json *.txt *.xz && rm -f *.json *.txt *.xz; ls -la | head)
