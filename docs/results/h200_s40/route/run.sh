# Session 40, call 2: winograd's NCHW input transform rebuilt (16-channel blocks of 16-bit V,
# interior patches unchecked, pair stores of whole sectors, rounds of rows; perf-notes 111) and the
# router that follows it (plain winograd on 16-bit NCHW layers wherever it pays against the direct
# kernels behind the transposes; no NCHW-output charge), against the build before the session
# (409684f, "old"), every row checked: (1) winograd forced on every 3x3 stride-1 layer at fp16 NCHW
# b32, new, with per-pass times (the input pass beside call 1's); (2) the fp16 NCHW layers whose
# golden plans changed (flips_b{32,1}.csv), old/new alternating twice; (3) fp32 NCHW b1 every suite
# (its winograd layers take both NCHW transforms), old/new.  No validation layer (64 MiB).
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz .carry/old/*.xz .carry/old/*/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
D=docs/results/h200_s40
run() { RUN_TIMEOUT=150 bench_checked "$@"; }
run new w32_nchw_new --shapes $D/nchwout/wino3x3_b32.csv --batch 32 --dtype fp16 --layout nchw --algo winograd --passes
for r in 1 2; do
  for v in old new; do
    run $v flip_b32_${v}$r --shapes $D/route/flips_b32.csv --batch 32 --dtype fp16 --layout nchw --passes
    run $v flip_b1_${v}$r --shapes $D/route/flips_b1.csv --batch 1 --dtype fp16 --layout nchw --passes
  done
done
ALL="--suite resnet50 --suite vgg16 --suite mobilenet_v2 --suite retinanet_head --suite sd_vae_decoder --suite rdna1_matrix"
for v in old new; do run $v fp32_nchw_b1_$v $ALL --batch 1 --dtype fp32 --layout nchw; done
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt && rm -f *.json *.txt; ls -la | head)
