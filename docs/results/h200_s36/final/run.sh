# Session 36, call 3: 32x64x64/2x2k2 routed by its one-wave line (4.2 + 0.619 µs per 64-deep slice
# of a group) in place of 32x64x32/2x2k4 where C/groups % 64 == 0, against the build of call 1's
# routing (aa06f5f, .carry/old); every row checked; cuDNN 9.19 in the same call:
#  1. the tile and decline tests of the k-tiles (validation layer on);
#  2. the 13 b1 layers whose plans moved (deep/moved.csv), fp16 / bf16 x NHWC / NCHW: old, new, old, new;
#  3. every suite at b1, fp16 / bf16 NHWC (new), and cuDNN beside them (the README's b1 NHWC columns).
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz .carry/old/bin/*.xz .carry/old/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
D=docs/results/h200_s36/deep
tests_validated tests_final.log 120 '*CoopmatTiles*2x2k2*:*CoopmatTiles*2x2k4*:*CoopmatDeclines*'
for dt in fp16 bf16; do for lay in nhwc nchw; do
  for v in old new old new; do
    RUN_TIMEOUT=60 bench_checked $v moved_${dt}_${lay}_$v$([ -f $OUT/moved_${dt}_${lay}_$v.json ] && echo 2) --shapes $D/moved.csv --batch 1 --dtype $dt --layout $lay
  done
done; done
RUN_TIMEOUT=100 bench_checked new fp16_nhwc_b1 $ALL --batch 1 --dtype fp16 --layout nhwc
RUN_TIMEOUT=100 bench_checked new bf16_nhwc_b1 $ALL --batch 1 --dtype bf16 --layout nhwc
say "cuDNN"
timeout 150 python3 bench/torch_baseline.py $ALL --config fp16_nhwc --config bf16_nhwc --batch 1 --json $OUT/cudnn.json > $OUT/cudnn.txt 2> $OUT/cudnn.err
echo "exit $?"
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log && tar czf results.tgz *.json *.txt *.xz && rm -f *.json *.txt *.xz; ls -la)
