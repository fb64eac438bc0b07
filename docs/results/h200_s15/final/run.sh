# Session 15, call 3: depthwise NHWC with the row-load rule (24 window pixels loaded first for
# 16-bit stride-1 layers, one row at a time otherwise) against the build before the session
# (193913d).  (a) tests with the validation layer; (b) the ten MobileNetV2 depthwise shapes,
# depthwise forced, fp16/fp32 NHWC at b32 and b1, old/new/old/new, and bf16 new, every row
# --check'ed; (c) the small-grid 1x1 layers (small_1x1.csv) fp16 NHWC b32, router and five
# coopmat tiles forced; (d) MobileNetV2 through the router (fp16/bf16/fp32 NHWC, b32 and b1) and
# cuDNN on all of it, same call.
# Packed with OLD_BUILD=/tmp/prevbuild scripts/device_pack.sh build-dev; run as OUT=... bash .carry/run.sh
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
D=docs/results/h200_s15/final
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
bench new small_auto --shapes $D/small_1x1.csv --dtype fp16 --layout nhwc --batch 32
for t in 64x64x32/2x2 128x64x32/2x2 128x128x32/2x4 128x128x16/2x4 128x128x64/2x4s1; do
  bench new small_${t//\//_} --shapes $D/small_1x1.csv --dtype fp16 --layout nhwc --batch 32 --algo implicit_gemm_coopmat --tile $t
done
for dt in fp16 bf16 fp32; do bench new mbv2_$dt --suite mobilenet_v2 --dtype $dt --layout nhwc --batch 32 --batch 1; done
say cudnn
timeout 150 python3 bench/torch_baseline.py --shapes $D/dw_layers.csv --shapes $D/small_1x1.csv --suite mobilenet_v2 --config fp16_nhwc --config fp32_nhwc --config bf16_nhwc \
  --batch 1 --batch 32 --json "$OUT/cudnn.json" > "$OUT/cudnn.txt" 2> "$OUT/cudnn.err"
echo "exit $?"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
