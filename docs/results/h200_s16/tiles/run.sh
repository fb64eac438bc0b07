# Session 16, call 1: candidate coopmat tiles against the shipped ones, fp16 NHWC, forced.
# (a) every CoopmatTiles case (the staging buffers now interleaved per row) with the validation
# layer; (b) NVIDIA's register counts for every coopmat variant (--shader-stats); (c) each tile
# forced on VGG-16 and RetinaNet b32 and SD-VAE b1, the reference tile first and last.
# Packed with scripts/device_pack.sh build-dev; run as OUT=... bash .carry/run.sh
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
tests_validated tests.log 200 'coopmat/CoopmatTiles.*:CoopmatRouting.*'
say stats
RUN_TIMEOUT=120 run_build new --shader-stats --algo implicit_gemm_coopmat > "$OUT/stats.txt" 2>&1; echo "exit $?"
grep -v skipped "$OUT/stats.txt" | grep -E "_f16 .*nhwc.*vec8ABO" | awk '{print $4, $5, $6, $7, $8, $9}' | head -3
grep -v skipped "$OUT/stats.txt" | grep -E "_f16 .*nhwc.*vec8ABO" | sed 's/.*\[tile //' | paste - <(grep -v skipped "$OUT/stats.txt" | grep -E "_f16 .*nhwc.*vec8ABO" | awk '{print "regs", $5, "spill", $7, $8, "lds", $9}')
i=0
for t in 128x256x32/2x4s1 192x128x32/4x2 128x192x32/2x4 128x256x32/4x4s1 256x128x32/4x4s1 192x128x64/4x4s1 192x128x64/4x2s1 128x256x32/2x4s1; do
  i=$((i + 1)); n=t${i}_$(echo $t | tr '/' '_')
  say "$n"
  RUN_TIMEOUT=100 run_build new --suite vgg16 --suite retinanet_head --batch 32 --dtype fp16 --layout nhwc \
    --algo implicit_gemm_coopmat --tile $t --check --json "$OUT/${n}_b32.json" > "$OUT/${n}_b32.txt" 2>&1
  echo "exit $?"; sed -n '/== Summary/,$p' "$OUT/${n}_b32.txt" | grep -vE '^(== |suite |$)'
  RUN_TIMEOUT=60 run_build new --suite sd_vae_decoder --batch 1 --dtype fp16 --layout nhwc \
    --algo implicit_gemm_coopmat --tile $t --check --json "$OUT/${n}_vae.json" > "$OUT/${n}_vae.txt" 2>&1
  echo "exit $?"; sed -n '/== Summary/,$p' "$OUT/${n}_vae.txt" | grep -vE '^(== |suite |$)'
done
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
