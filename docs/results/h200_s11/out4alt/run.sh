# Session 11, call 6: the 16-byte direct epilogue instead of the staged one wherever it applies
# (.carry/alt: b929a15 with stagedEpilogue overridden by VEC_OUT) against this build (b929a15),
# fp32 NCHW b32 (ResNet-50, MobileNetV2) and b1 (all suites), alternating.
# Packed with ALT_BUILD=<alt build> scripts/device_pack.sh build-dev; run as OUT=... bash .carry/run.sh
source scripts/device_run.sh none > /dev/null 2>&1
for b in 32 1; do
  S="--suite resnet50 --suite mobilenet_v2"; [ $b = 1 ] && S=
  for v in new alt; do
    say "b$b $v"
    run_build $v $S --batch $b --dtype fp32 --layout nchw --check --json "$OUT/b${b}_$v.json" > "$OUT/b${b}_$v.txt" 2>&1
    echo "exit $?"; sed -n '/== Summary/,$p' "$OUT/b${b}_$v.txt" | sed -n '3,8p'
  done
done
(cd "$OUT" && tar czf results-alt.tgz *.json *.txt && rm -f *.json *.txt)
