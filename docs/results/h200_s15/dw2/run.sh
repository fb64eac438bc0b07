# Session 15, call 2: depthwise NHWC interior blocks load their window rows before the
# multiply-adds (this build) against the build before the session (193913d: the same depthwise
# kernel as every build since 534d3de).  (a) tests with the validation layer; (b) the ten
# MobileNetV2 depthwise shapes (dw_layers.csv), depthwise forced, fp16 and fp32 NHWC at b32 and
# b1, old/new/old/new, every row --check'ed; bf16 new; (c) MobileNetV2 fp16 NHWC b32 and b1 through
# the router, and cuDNN on the depthwise shapes and the suite, same call.
# Packed with OLD_BUILD=/tmp/prevbuild scripts/device_pack.sh build-dev; run as OUT=... bash .carry/run.sh
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
D=docs/results/h200_s15/dw2
tests_validated tests.log 150 '*Depthwise*:All/Edges*__depthwise:All/Edges*__auto'
bench() {  # bench BUILD NAME ARGS...: checked rows, per-config sums printed
  local v=$1 name=$2; shift 2
  local d=$C; [ $v = new ] || d=$C/$v
  say "$name"
  LD_LIBRARY_PATH=$d/lib VKCONV_CACHE_DIR=/tmp/vkconv-cache-$v timeout 150 $d/bin/vkconv-bench --suites-dir bench/suites --check \
    --json "$OUT/$name.json" "$@" > "$OUT/$name.txt" 2>&1
  echo "exit $?"; sed -n '/== Summary/,$p' "$OUT/$name.txt" | grep -E "^(mbv2|mobilenet)|passed"
}
i=0
for v in old new old new; do i=$((i + 1))
  bench $v dw_${v}_$(( (i + 1) / 2 )) --shapes $D/dw_layers.csv --algo depthwise --dtype fp16 --dtype fp32 --layout nhwc --batch 32 --batch 1
done
bench new dw_bf16_new --shapes $D/dw_layers.csv --algo depthwise --dtype bf16 --layout nhwc --batch 32 --batch 1
bench new mbv2_fp16 --suite mobilenet_v2 --dtype fp16 --layout nhwc --batch 32 --batch 1
say cudnn
timeout 150 python3 bench/torch_baseline.py --shapes $D/dw_layers.csv --suite mobilenet_v2 --config fp16_nhwc --config fp32_nhwc --config bf16_nhwc \
  --batch 1 --batch 32 --json "$OUT/cudnn.json" > "$OUT/cudnn.txt" 2> "$OUT/cudnn.err"
echo "exit $?"; grep TOTAL "$OUT/cudnn.txt" | head
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
