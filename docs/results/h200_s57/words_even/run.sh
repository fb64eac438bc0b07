# NOT RUN in session 57 (the device budget ran out in failed starts): the prepared call that times the kept form.
# Session 57, call 3 (the kept form, trimmed to this session's last device minutes):
# implicit_gemm_coopmat's NCHW outputs of even P*Q that the runs leave (14x14 on 16-subgroup
# tiles) in 4-byte words of two pixels (NCHW_WORDS; 7x7 keeps the element stores: call 2 measured
# words slower there) against the element stores (VKCONV_NCHW_WORDS=0, same binary), per pass on
# layers.csv (four layers with words, two 7x7 controls), fp16 b32 NCHW off / on / off / on, bf16
# off / on; first the output tests with the validation layer.  Every row checked.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
L=docs/results/h200_s57/words_even/layers.csv
pack() { (cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.log 2>/dev/null); }
tests_validated tests.log 40 'coopmat_out_words/*:coopmat_runs4/*:coopmat/CoopmatShapes.*nchw_out_*'
pack
lay() { local name=$1 dt=$2; RUN_TIMEOUT=30 bench_checked new ${dt}_layers_$name --shapes $L --batch 32 --dtype $dt --layout nchw --passes; pack; }
VKCONV_NCHW_WORDS=0 lay off1 fp16
lay on1 fp16
VKCONV_NCHW_WORDS=0 lay off2 fp16
lay on2 fp16
VKCONV_NCHW_WORDS=0 lay off bf16
lay on bf16
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && rm -f *.json *.txt *.log; ls -la | head)
