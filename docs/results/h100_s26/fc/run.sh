# Session 26, call 1: few_channels_coopmat on ggml's 8-channel 4x4 cases (16x16 outputs, batch
# 16), where it took 19-30 us against cuDNN's 5-6 (h200_s25/cases/):
#  - the 16-byte staging of eight-channel groups (kSpecVecIn) against the element loads
#    (VKCONV_FEW_COOPMAT_VEC_IN=0: the shipped kernel), at the heuristic's tile and forced tiles;
#  - the other algorithms that accept them (--algo all), and every ggml case's auto plan;
#  - the 1536x1536x32 -> 64 case (halo_coopmat 504 us against cuDNN's 233): forced tiles of
#    halo_coopmat and implicit_gemm_coopmat, winograd;
#  - cuDNN fp16/bf16 NHWC on the ggml cases.  Every vkconv row checked.
for f in .carry/bin/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
G=bench/cases/ggml_perf.csv
head -1 $G > /tmp/c8.csv; grep "x8_n16" $G >> /tmp/c8.csv
head -1 $G > /tmp/big.csv; grep "1536" $G >> /tmp/big.csv
fc() {  # fc NAME ENV TILE
  timeout 40 env $2 $B --shapes /tmp/c8.csv --dtype fp16 --layout nhwc --algo few_channels_coopmat ${3:+--tile $3} \
    --check --json "$OUT/fc_$1.json" 2>&1 | grep -E "^ggml_perf" | sed 's/  */ /g' | cut -d' ' -f2,7,12-
}
say "few_channels_coopmat tiles, vec / element loads"
for t in "" 1x16x64/1x2 2x16x64/1x2 4x16x64/1x2 8x16x64/1x2 1x16x128/1x4 2x16x128/1x4 4x16x128/1x4 1x16x128/1x2 \
         2x16x32/1x1 4x16x32/1x2 1x16x64/1x2p2 2x16x64/1x2p2 1x16x64/1x4 2x16x64/1x4; do
  n=$(echo "${t:-auto}" | tr '/' '_')
  echo "-- $n vec"; fc "${n}_vec" VKCONV_FEW_COOPMAT_VEC_IN=1 "$t"
  echo "-- $n elem"; fc "${n}_elem" VKCONV_FEW_COOPMAT_VEC_IN=0 "$t"
done
RUN_TIMEOUT=60 bench_checked new c8_all --shapes /tmp/c8.csv --dtype fp16 --layout nhwc --algo all
say "1536 case"
for a in "halo_coopmat 256x64/4x1" "halo_coopmat 256x64/4x2" "halo_coopmat 128x64/2x2" \
         "implicit_gemm_coopmat 256x64x32/4x2s1" "implicit_gemm_coopmat 128x64x32/2x2" "implicit_gemm_coopmat 64x64x32/2x2" \
         "implicit_gemm_coopmat 256x64x64/4x4s1" "implicit_gemm_coopmat 64x64x64/2x4" "implicit_gemm_coopmat 128x128x32/2x4" "winograd"; do
  set -- $a
  timeout 40 $B --shapes /tmp/big.csv --dtype fp16 --layout nhwc --algo $1 ${2:+--tile $2} --check --json "$OUT/big_$1_$(echo ${2:-auto} | tr '/' '_').json" 2>&1 |
    grep -E "^ggml_perf" | sed 's/  */ /g' | cut -d' ' -f2,7,12-
done
RUN_TIMEOUT=90 bench_checked new ggml_16 --shapes $G --dtype fp16 --dtype bf16 --layout nhwc
say cudnn
timeout 45 python3 bench/torch_baseline.py --shapes $G --config fp16_nhwc --config bf16_nhwc --json "$OUT/cudnn_ggml.json" > "$OUT/cudnn_ggml.txt" 2> "$OUT/cudnn_ggml.err"
echo "exit $?"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err && rm -f *.json *.txt *.err; ls)
