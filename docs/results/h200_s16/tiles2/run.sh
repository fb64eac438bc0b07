# Session 16, call 2: more 16-subgroup coopmat tiles, forced, fp16 NHWC, against the shipped tiles
# they would compete with (256x64x32/4x2s1 on the 64-filter layers, 128x128x64/2x4s1 on mid-size
# grids) and call 1's best (192x128x64/4x4s1, now routed).  (a) the 16-subgroup CoopmatTiles cases
# and the routing tests with the validation layer; (b) each tile forced on VGG-16 and RetinaNet b32
# and SD-VAE b1, every row --check'ed.
# Packed with scripts/device_pack.sh build-dev; run as OUT=... bash .carry/run.sh
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
tests_validated tests.log 150 'coopmat/CoopmatTiles.*4x4*:CoopmatRouting.*'
i=0
for t in 192x128x64/4x4s1 256x64x64/4x4s1 256x64x32/4x2s1 128x128x64/4x4s1 128x128x64/2x4s1 128x128x32/4x4; do
  i=$((i + 1)); n=u${i}_$(echo $t | tr '/' '_')
  say "$n"
  RUN_TIMEOUT=100 run_build new --suite vgg16 --suite retinanet_head --batch 32 --dtype fp16 --layout nhwc \
    --algo implicit_gemm_coopmat --tile $t --check --json "$OUT/${n}_b32.json" > "$OUT/${n}_b32.txt" 2>&1
  echo "exit $?"; sed -n '/== Summary/,$p' "$OUT/${n}_b32.txt" | grep -vE '^(== |suite |$)'
  RUN_TIMEOUT=60 run_build new --suite sd_vae_decoder --batch 1 --dtype fp16 --layout nhwc \
    --algo implicit_gemm_coopmat --tile $t --check --json "$OUT/${n}_vae.json" > "$OUT/${n}_vae.txt" 2>&1
  echo "exit $?"; sed -n '/== Summary/,$p' "$OUT/${n}_vae.txt" | grep -vE '^(== |suite |$)'
done
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
