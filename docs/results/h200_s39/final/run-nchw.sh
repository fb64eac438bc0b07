# Session 39, call 4: the fp16 NCHW columns beside cuDNN 9.19 in the same call (fp16 NCHW every
# suite at b1 and the b32 suites; cuDNN fp16 NCHW b1 and b32), then the fp16 NCHW layers whose
# plans changed this session (refit and NCHW-output charge) against the build before (a53d959,
# "old"), old / new / old / new, checked.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz .carry/old/*/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
D=docs/results/h200_s39/final
RUN_TIMEOUT=100 bench_checked new fp16_nchw_b1 $ALL --batch 1 --dtype fp16 --layout nchw
say cudnn
timeout 150 python3 bench/torch_baseline.py $ALL --config fp16_nchw --batch 1 --batch 32 --json "$OUT/cudnn_nchw.json" > "$OUT/cudnn_nchw.txt" 2> "$OUT/cudnn_nchw.err"
echo "exit $?"
RUN_TIMEOUT=200 bench_checked new fp16_nchw_b32 $B32 --batch 32 --dtype fp16 --layout nchw
for r in 1 2; do
  for v in old new; do
    RUN_TIMEOUT=60 bench_checked $v flip_b32_${v}$r --shapes $D/nchw_flips_b32.csv --batch 32 --dtype fp16 --layout nchw
    RUN_TIMEOUT=60 bench_checked $v flip_b1_${v}$r --shapes $D/nchw_flips_b1.csv --batch 1 --dtype fp16 --layout nchw
  done
done
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar czf results-nchw.tgz *.json *.txt *.err && rm -f *.json *.txt *.err; ls -la | head)
