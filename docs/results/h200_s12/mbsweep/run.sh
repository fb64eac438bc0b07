# Session 12, call 5: MobileNetV2 b1 fp32 NCHW (the one fp32 suite above cuDNN): every algorithm
# that accepts each layer (--algo all), then split-K forced at 2-16 splits on the two small tiles,
# and the NHWC path; cuDNN in the same call.  For the 7x7 1x1 layers (H*W = 49) that the router
# sends through the NHWC transposes and split-K.
# Packed with scripts/device_pack.sh build-dev (HEAD 53f97cc); run as OUT=... bash .carry/run.sh
source scripts/device_run.sh none > /dev/null 2>&1
S="--suite mobilenet_v2 --batch 1 --dtype fp32 --layout nchw --check --warmup-ms 50"
say "auto"; run_build new $S --json "$OUT/auto.json" > "$OUT/auto.txt" 2>&1; echo "exit $?"
say "all"; run_build new $S --algo all --json "$OUT/all.json" > "$OUT/all.txt" 2>&1; echo "exit $?"
for t in 64x16x8/4x4 128x64x8/8x4 64x32x8/4x4; do for s in 2 4 8 16; do
  n=${t//\//_}_s$s; say "splitk $n"
  run_build new $S --algo implicit_gemm_splitk --tile "$t/s$s" --json "$OUT/sk_$n.json" > "$OUT/sk_$n.txt" 2>&1; echo "exit $?"
done; done
say "auto again"; run_build new $S --json "$OUT/auto2.json" > "$OUT/auto2.txt" 2>&1; echo "exit $?"
say "cuDNN"; python3 bench/torch_baseline.py --suite mobilenet_v2 --config fp32_nchw --batch 1 --json "$OUT/cudnn.json" > /dev/null 2> "$OUT/cudnn.err"; echo "exit $?"
(cd "$OUT" && tar czf results-mbsweep.tgz *.json *.txt *.err && rm -f *.json *.txt *.err)
