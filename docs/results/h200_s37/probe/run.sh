# Session 37, call 1: the matrix kernels' slice loop alone, fed from shared memory (the new
# `--peak` rows, shaders/peak/coopmat_smem.comp), against the register-fed peak in the same run;
# their machine code; and the rated small tiles forced at b1 for a one-wave line (perf-notes 100):
#  1. vkconv-bench --peak, twice (clock settling);
#  2. --shader-stats --algo direct --isa (builds every peak probe too: their microcode blobs);
#  3. b1.csv (session 36's 27 split / deep b1 layers): the router, then 64x64x64/2x4,
#     64x64x32/2x4 and 128x128x64/2x4s1 forced at 1, 2, 4 and 8 splits, fp16 NHWC, checked.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
D=docs/results/h200_s37/probe
for i in 1 2; do
  say "peak $i"
  timeout 120 $C/bin/vkconv-bench --peak > $OUT/peak$i.txt 2> $OUT/peak$i.err
  echo "exit $?"; grep -E "coopmat|FMA" $OUT/peak$i.txt | cut -c1-200
done
say "isa"
timeout 120 $C/bin/vkconv-bench --shader-stats --algo direct --isa $OUT/isa > $OUT/stats.txt 2>&1
echo "exit $?"; grep -E "peak_cm" $OUT/stats.txt | head -20; ls $OUT/isa | grep -c smem
run() { RUN_TIMEOUT=60 bench_checked new "$@"; }
run b1_auto --shapes $D/b1.csv --batch 1 --dtype fp16 --layout nhwc
for t in 64x64x64/2x4 64x64x32/2x4 128x128x64/2x4s1; do for s in 1 2 4 8; do
  run b1_${t//\//_}_s$s --shapes $D/b1.csv --batch 1 --dtype fp16 --layout nhwc --algo implicit_gemm_coopmat --tile $t/s$s
done; done
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && mkdir -p isa_smem && mv isa/*peak_cm* isa_smem/ 2>/dev/null; tar cJf isa.tar.xz isa_smem && rm -rf isa isa_smem && tar czf results.tgz *.json *.txt *.err *.xz && rm -f *.json *.txt *.err; ls -la)
