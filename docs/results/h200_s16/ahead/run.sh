# Session 16, call 5: do the 16-subgroup tiles want their global loads two slices ahead?  NVIDIA
# caps them at 128 registers, where the second staging set may cost more than it hides.  Each
# tile forced on VGG-16 and RetinaNet b32 and SD-VAE b1, fp16 NHWC, with the default (two slices
# ahead) and VKCONV_COOPMAT_AHEAD2=0, alternating, every row --check'ed.  First the new
# CoopmatTiles/CoopmatShapes cases (64-deep slices) and k1__auto with the validation layer.
# Packed with scripts/device_pack.sh build-dev; run as OUT=... bash .carry/run.sh
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
# (tests: passed in a first try of this script, 39 tests, tests.log; skipped here)
i=0
for t in 192x128x64/4x4s1 256x64x64/4x4s1; do
  for a in 1 0 1 0; do
    i=$((i + 1)); n=a${i}_$(echo $t | tr '/' '_')_ahead$a
    say "$n"
    VKCONV_COOPMAT_AHEAD2=$a RUN_TIMEOUT=100 run_build new --suite vgg16 --suite retinanet_head --batch 32 --dtype fp16 --layout nhwc \
      --algo implicit_gemm_coopmat --tile $t --check --json "$OUT/${n}_b32.json" > "$OUT/${n}_b32.txt" 2>&1
    echo "exit $?"; sed -n '/== Summary/,$p' "$OUT/${n}_b32.txt" | grep -vE '^(== |suite |$)'
  done
done
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
