# Session 26, call 2: the 16-byte staging and the small-grid rule of few_channels_coopmat, final:
#  - its tests and the coopmat_nhwc ones (first layers behind the transposes) with the validation layer;
#  - ggml's 8-channel cases, old (element loads, the old rule's tiles 1x16x64/1x2 and 2x16x64/1x2)
#    and new (auto) alternating twice;
#  - the SD-VAE's l0 at b1 (the small-grid rule's other case: it still halves there) at forced tiles;
#  - every ggml case fp16/bf16 NHWC, auto, then cuDNN on them;
#  - halo_coopmat 256x64/4x2 (unmeasured, so never a heuristic candidate on NVIDIA) against
#    256x64/4x1 on every layer it accepts, fp16 NHWC b1 (all suites) and b32 (four suites).
# Every vkconv row checked.
for f in .carry/bin/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
G=bench/cases/ggml_perf.csv
head -1 $G > /tmp/c8.csv; grep "x8_n16" $G >> /tmp/c8.csv
row() { grep -E "^(ggml_perf|sd_vae)" | sed 's/  */ /g' | cut -d' ' -f2,7,12-; }
tests_validated tests.log 150 '*FewChannelsCoopmat*:*CoopmatNhwc*'
say "A/B ggml 8-channel cases"
for i in 1 2; do
  echo "-- old $i"
  for t in 1x16x64/1x2:o128 2x16x64/1x2:o130; do
    grep -E "^suite|_${t#*:}," /tmp/c8.csv > /tmp/one.csv
    timeout 30 env VKCONV_FEW_COOPMAT_VEC_IN=0 $B --shapes /tmp/one.csv --dtype fp16 --layout nhwc --algo few_channels_coopmat \
      --tile ${t%:*} --check --json "$OUT/ab_old_${t#*:}_$i.json" 2>&1 | row
  done
  echo "-- new $i"
  timeout 30 $B --shapes /tmp/c8.csv --dtype fp16 --layout nhwc --check --json "$OUT/ab_new_$i.json" 2>&1 | row
done
say "SD-VAE l0 b1 tiles"
head -1 bench/suites/sd_vae_decoder.csv > /tmp/l0.csv; grep ",l0," bench/suites/sd_vae_decoder.csv >> /tmp/l0.csv
for t in "" 4x32x64/1x2 2x32x64/1x2 8x32x32/1x1 4x64x64/1x2; do
  timeout 30 $B --shapes /tmp/l0.csv --batch 1 --dtype fp16 --layout nhwc --algo few_channels_coopmat ${t:+--tile $t} --check \
    --json "$OUT/l0_$(echo ${t:-auto} | tr '/' '_').json" 2>&1 | row
done
RUN_TIMEOUT=90 bench_checked new ggml_16 --shapes $G --dtype fp16 --dtype bf16 --layout nhwc
say cudnn
timeout 45 python3 bench/torch_baseline.py --shapes $G --config fp16_nhwc --config bf16_nhwc --json "$OUT/cudnn_ggml.json" > "$OUT/cudnn_ggml.txt" 2> "$OUT/cudnn_ggml.err"
echo "exit $?"
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
for t in 256x64/4x1 256x64/4x2; do
  n=$(echo $t | tr '/' '_')
  RUN_TIMEOUT=70 bench_checked new halo_b1_$n $ALL --batch 1 --dtype fp16 --layout nhwc --algo halo_coopmat --tile $t
  RUN_TIMEOUT=90 bench_checked new halo_b32_$n $B32 --batch 32 --dtype fp16 --layout nhwc --algo halo_coopmat --tile $t
done
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log && rm -f *.json *.txt *.err *.log; ls)
