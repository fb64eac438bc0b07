# Session 29, call 9: the three matrix-unit algorithms forced against the router on the layers
# with the largest absolute gaps that no winograd takes (SD-VAE b1 l6 / l9 / l8, VGG-16 b32
# features.2 / .5 / .7) and the rest of the SD-VAE suite: implicit_gemm_coopmat, halo_coopmat,
# winograd F(4x4) and F(2x2); fp16 NHWC, checked (perf-notes 76).
T0=$(date +%s)
for f in .carry/bin/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
S="--suite sd_vae_decoder --batch 1 --dtype fp16 --layout nhwc"
V="--shapes bench/cases/vgg_early_b32.csv --dtype fp16 --layout nhwc"
for a in auto implicit_gemm_coopmat halo_coopmat winograd winograd2; do
  X="--algo $a"; [ $a = winograd2 ] && X="--algo winograd --tile 2x2"
  RUN_TIMEOUT=60 bench_checked new sd_$a $S $X
  RUN_TIMEOUT=60 bench_checked new vgg_$a $V $X
done
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt && rm -f *.json *.txt; ls)
