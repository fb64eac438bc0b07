# Session 26, call 4 (HEAD c8c1da5): the first-layer changes, final, beside cuDNN:
#  - few_channels_coopmat and routing tests with the validation layer;
#  - 16-bit NCHW first layers at b1 (the new router takes conv1 and the RDNA1 sizes to
#    few_channels_coopmat in NCHW too, measured in NHWC only by call 3): router against
#    direct_few_channels forced (the old router's pick);
#  - every suite at b1, fp16 and bf16 NHWC and fp16 NCHW, then cuDNN on the same rows (the README's b1 columns).
# Every vkconv row checked.
for f in .carry/bin/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
row() { grep -E "^(ggml_perf|sd_vae|rdna1|resnet|mobilenet|vgg)" | sed 's/  */ /g' | cut -d' ' -f1,2,3,4,5,7,12-; }
S=bench/suites
head -1 $S/resnet50.csv > /tmp/first.csv
for f in $S/resnet50.csv $S/mobilenet_v2.csv $S/rdna1_matrix.csv $S/sd_vae_decoder.csv; do
  awk -F, 'NR>1 && $4/$16<=4 && $7/$16>=16' $f | grep -v "size_224\|size_256\|size_512" >> /tmp/first.csv
done
tests_validated tests.log 120 '*FewChannelsCoopmat*:*Routing*'
for dt in fp16 bf16; do
  RUN_TIMEOUT=60 bench_checked new first_nchw_auto_$dt --shapes /tmp/first.csv --batch 1 --dtype $dt --layout nchw
  RUN_TIMEOUT=60 bench_checked new first_nchw_dfc_$dt --shapes /tmp/first.csv --batch 1 --dtype $dt --layout nchw --algo direct_few_channels
done
for f in first_nchw_auto_fp16 first_nchw_dfc_fp16 first_nchw_auto_bf16 first_nchw_dfc_bf16; do echo "-- $f"; row < "$OUT/$f.txt"; done
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
RUN_TIMEOUT=100 bench_checked new fp16_b1 $ALL --batch 1 --dtype fp16 --layout nhwc
RUN_TIMEOUT=100 bench_checked new bf16_b1 $ALL --batch 1 --dtype bf16 --layout nhwc
RUN_TIMEOUT=100 bench_checked new fp16nchw_b1 $ALL --batch 1 --dtype fp16 --layout nchw
say cudnn
timeout 120 python3 bench/torch_baseline.py $ALL --config fp16_nhwc --config bf16_nhwc --config fp16_nchw --batch 1 --json "$OUT/cudnn.json" > "$OUT/cudnn.txt" 2> "$OUT/cudnn.err"
echo "exit $?"; grep "call floor" "$OUT/cudnn.err"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log && rm -f *.json *.txt *.err *.log; ls)
