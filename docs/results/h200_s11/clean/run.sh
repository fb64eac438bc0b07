# Session 11, call 5: this build (534d3de: VEC_OUT, and the bench's longer warm-up after GPU idle),
# fp32 NCHW b32 + b1 and cuDNN fp32 (TF32 off) in one call (the README's fp32 columns), then b32
# again in a second process (does any layer still time at a fallen clock?).
# Packed with scripts/device_pack.sh build-dev; run as OUT=... bash .carry/run.sh
source scripts/device_run.sh none > /dev/null 2>&1
fp32_auto_and_cudnn 2>&1 | grep -vE "vkconv_tests|PASSED|^[0-9]+$"
say "fp32 b32 second process"
run_build new $B32 --batch 32 --dtype fp32 --layout nchw --check --json "$OUT/fp32_b32_again.json" > "$OUT/fp32_b32_again.txt" 2>&1
echo "exit $?"; sed -n '/== Summary/,$p' "$OUT/fp32_b32_again.txt" | head -6
(cd "$OUT" && tar czf results-clean.tgz *.json *.txt && rm -f *.json *.txt)
