# Session 17, call 5: bf16 depthwise stores through VK_KHR_shader_bfloat16's conversion
# (depthwise_bf16n, on devices with shaderBFloat16Type) against the integer round-to-nearest-even
# sequence (the build before the session, 89527c8).  (a) the depthwise tests with the validation
# layer; (b) the ten MobileNetV2 depthwise shapes (dw_layers.csv, session 15's), depthwise forced,
# bf16/fp16/fp32 NHWC at b32 and b1, old/new/old/new; (c) every suite through the router in bf16
# NHWC (new), MobileNetV2 old too, and cuDNN bf16 NHWC in the same call (the README's bf16
# columns).  Every row --check'ed.  Packed with OLD_BUILD=<89527c8 build> scripts/device_pack.sh build-dev.
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
D=docs/results/h200_s17/bf16n
tests_validated tests.log 120 '*Depthwise*:All/Edges*__depthwise'
i=0
for v in old new old new; do i=$((i + 1))
  RUN_TIMEOUT=100 bench_checked $v dw_${v}_$(( (i + 1) / 2 )) --shapes $D/dw_layers.csv --algo depthwise --dtype bf16 --dtype fp16 --dtype fp32 \
    --layout nhwc --batch 32 --batch 1
done
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
RUN_TIMEOUT=60 bench_checked old mbv2_bf16_old --suite mobilenet_v2 --dtype bf16 --layout nhwc --batch 32 --batch 1
RUN_TIMEOUT=120 bench_checked new bf16_b32_new $B32 --batch 32 --dtype bf16 --layout nhwc
RUN_TIMEOUT=120 bench_checked new bf16_b1_new $ALL --batch 1 --dtype bf16 --layout nhwc
say cudnn
timeout 150 python3 bench/torch_baseline.py $ALL --config bf16_nhwc --batch 1 --batch 32 --json "$OUT/cudnn.json" > "$OUT/cudnn.txt" 2> "$OUT/cudnn.err"
echo "exit $?"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
