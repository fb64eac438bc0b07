# Session 16, call 8: do the 8-subgroup tiles still want their loads two slices ahead?  (Item 18
# measured +5-7 % for it before the load cursor and the rest of items 26-43.)  128x256x32/2x4s1
# (the largest layers' tile) forced on VGG-16 and RetinaNet b32, and 128x128x64/2x4s1 (the
# commonest b1 tile) forced at b1 on VGG-16, RetinaNet, SD-VAE and the RDNA1 matrix; fp16 NHWC,
# the default (two ahead) and VKCONV_COOPMAT_AHEAD2=0 alternating twice, every row --check'ed.
# Packed with scripts/device_pack.sh build-dev; run as OUT=... bash .carry/run.sh
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
i=0
for a in 1 0 1 0; do
  i=$((i + 1)); n=b${i}_128x256x32_2x4s1_ahead$a
  say "$n"
  VKCONV_COOPMAT_AHEAD2=$a RUN_TIMEOUT=100 run_build new --suite vgg16 --suite retinanet_head --batch 32 --dtype fp16 --layout nhwc \
    --algo implicit_gemm_coopmat --tile 128x256x32/2x4s1 --check --json "$OUT/$n.json" > "$OUT/$n.txt" 2>&1
  echo "exit $?"; sed -n '/== Summary/,$p' "$OUT/$n.txt" | grep -vE '^(== |suite |$)'
done
for a in 1 0 1 0; do
  i=$((i + 1)); n=c${i}_128x128x64_2x4s1_b1_ahead$a
  say "$n"
  VKCONV_COOPMAT_AHEAD2=$a RUN_TIMEOUT=100 run_build new --suite vgg16 --suite retinanet_head --suite sd_vae_decoder --suite rdna1_matrix \
    --batch 1 --dtype fp16 --layout nhwc --algo implicit_gemm_coopmat --tile 128x128x64/2x4s1 --check --json "$OUT/$n.json" > "$OUT/$n.txt" 2>&1
  echo "exit $?"; sed -n '/== Summary/,$p' "$OUT/$n.txt" | grep -vE '^(== |suite |$)'
done
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
