# Session 15, call 8: the router gives 9-16 filters per group to implicit_gemm instead of the
# matrix units (new) against the build before it (old: 23d8116, depthwise work included).
# (a) routing tests with the validation layer; (b) MobileNetV2 fp16 and bf16 NHWC at b32 and b1,
# old/new/old/new, every row --check'ed (only features.1.conv.1, 32 -> 16 channels, changes
# algorithm); (c) cuDNN, same call.
# Packed with OLD_BUILD=<23d8116 build> scripts/device_pack.sh build-dev; run as OUT=... bash .carry/run.sh
source scripts/device_run.sh none > /dev/null 2>&1
tests_validated tests.log 120 '*Routing*:CoopmatDeclines.*:All/Edges*__auto'
bench() {  # bench BUILD NAME ARGS...: checked rows, per-config sums printed
  local v=$1 name=$2; shift 2
  local d=$C; [ $v = new ] || d=$C/$v
  say "$name"
  LD_LIBRARY_PATH=$d/lib VKCONV_CACHE_DIR=/tmp/vkconv-cache-$v timeout 150 $d/bin/vkconv-bench --suites-dir bench/suites --check \
    --json "$OUT/$name.json" "$@" > "$OUT/$name.txt" 2>&1
  echo "exit $?"; sed -n '/== Summary/,$p' "$OUT/$name.txt" | grep -E "^mobilenet|passed"; grep "features.1.conv.1 " "$OUT/$name.txt" | cut -c1-140
}
i=0
for v in old new old new; do i=$((i + 1))
  bench $v mbv2_${v}_$(( (i + 1) / 2 )) --suite mobilenet_v2 --dtype fp16 --dtype bf16 --layout nhwc --batch 32 --batch 1
done
say cudnn
timeout 150 python3 bench/torch_baseline.py --suite mobilenet_v2 --config fp16_nhwc --config bf16_nhwc \
  --batch 1 --batch 32 --json "$OUT/cudnn.json" > "$OUT/cudnn.txt" 2> "$OUT/cudnn.err"
echo "exit $?"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
