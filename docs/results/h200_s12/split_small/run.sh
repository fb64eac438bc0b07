# Session 12, call 6: split-K down to 32 reduction values per split for outputs of at most 64K
# elements (the batch-1 1x1 layers of item 37's sweep), old build (53f97cc) against new, fp32 NCHW
# at batch 1 over every suite, twice each, then cuDNN; fp16 NHWC b1 old/new.
# Packed with OLD_BUILD=<53f97cc build> scripts/device_pack.sh build-dev; run as OUT=... bash .carry/run.sh
source scripts/device_run.sh none > /dev/null 2>&1
for i in 1 2; do for v in old new; do
  say "fp32 b1 $v $i"
  run_build $v --batch 1 --dtype fp32 --layout nchw --check --json "$OUT/fp32_b1_${v}_$i.json" > "$OUT/fp32_b1_${v}_$i.txt" 2>&1
  echo "exit $?"; sed -n '/== Summary/,$p' "$OUT/fp32_b1_${v}_$i.txt" | sed -n 3,8p
done; done
for v in old new; do
  say "fp16 nhwc b1 $v"
  run_build $v --batch 1 --dtype fp16 --layout nhwc --check --json "$OUT/fp16_b1_$v.json" > "$OUT/fp16_b1_$v.txt" 2>&1
  echo "exit $?"; sed -n '/== Summary/,$p' "$OUT/fp16_b1_$v.txt" | sed -n 3,8p
done
say "cuDNN fp32 b1"
python3 bench/torch_baseline.py --config fp32_nchw --batch 1 --json "$OUT/cudnn_fp32.json" > /dev/null 2> "$OUT/cudnn_fp32.err"; echo "exit $?"
tests_validated tests_split.log 200 '*SplitK*:*splitk*:All/Edges*__auto:All/Edges*__implicit_gemm_splitk'
(cd "$OUT" && tar czf results-split.tgz *.json *.txt *.log *.err && rm -f *.json *.txt *.log *.err)
