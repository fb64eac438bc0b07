# Session 12, call 3: direct_few_channels with its channel and filter-row loops kept rolled
# ([[dont_unroll]]: the 7x7 stem's 147 taps unrolled were ~6000 instructions).  (a) first layers,
# router, old build (4948f99) vs new, fp32 NCHW, fp16 NHWC and fp32 NHWC, b32 and b1, with cuDNN;
# (b) the README's columns: fp32 NCHW (cuDNN TF32 off) and fp16 NHWC suites at b1 and b32 with
# cuDNN in this call; (c) tests, validation layer on.
# Packed with OLD_BUILD=<4948f99 build> scripts/device_pack.sh build-dev; run as OUT=... bash .carry/run.sh
source scripts/device_run.sh none > /dev/null 2>&1
F="--shapes docs/results/h200_s12/few/first_layers.csv --check"
for cfg in "fp32 nchw" "fp16 nhwc" "fp32 nhwc"; do set -- $cfg
  for b in 32 1; do for v in old new; do
    say "first layers $1 $2 b$b $v"
    run_build $v $F --batch $b --dtype $1 --layout $2 --json "$OUT/first_$1_$2_b${b}_$v.json" > "$OUT/first_$1_$2_b${b}_$v.txt" 2>&1
    echo "exit $?"; sed -n '/== Summary/,$p' "$OUT/first_$1_$2_b${b}_$v.txt" | sed -n 3p
  done; done
done
say "cuDNN first layers"
python3 bench/torch_baseline.py --shapes docs/results/h200_s12/few/first_layers.csv --config fp32_nchw --config fp16_nhwc \
  --config fp32_nhwc --batch 1 --batch 32 --json "$OUT/cudnn_first.json" > /dev/null 2> "$OUT/cudnn_first.err"; echo "exit $?"
fp32_auto_and_cudnn 2>&1 | grep -vE "vkconv_tests|PASSED|^[0-9]+$"
bench_pair fp16 nhwc 1 32
export VKCONV_SUITES_DIR=$PWD/bench/suites
tests_validated tests_final.log 240 '*FewChannels*:All/Edges*direct_few_channels:All/Edges*__auto:*Shapes*'
(cd "$OUT" && tar czf results-final.tgz *.json *.txt *.log *.err && rm -f *.json *.txt *.log *.err)
