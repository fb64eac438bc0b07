# Session 15, call 6: as call 5 (final3/), with bf16 stride-1 layers on the rows-first interior path
# too (their 4-wide loads now widen 32-bit words).  Call 5: as call 4 (final2/), with the tested rows loading inside-window columns with
# no per-column select again (as before the session).  Depthwise NHWC with the rule (the untested, rows-first interior path
# for fp16 stride-1 layers only; every other layer its rows under bounds tests, as before the
# session, with the filter taps in 4-wide loads; bf16 widened from 32-bit words) against the
# build before the session (193913d).  (a) tests with the validation layer; (b) the ten
# MobileNetV2 depthwise shapes, depthwise forced, fp16/fp32/bf16 NHWC at b32 and b1,
# old/new/old/new, every row --check'ed; (c) MobileNetV2 through the router (fp16/bf16/fp32 NHWC,
# b32 and b1) and cuDNN on both, same call.
# Packed with OLD_BUILD=/tmp/prevbuild scripts/device_pack.sh build-dev; run as OUT=... bash .carry/run.sh
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
D=docs/results/h200_s15/final4
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
  bench $v dw_${v}_$(( (i + 1) / 2 )) --shapes $D/dw_layers.csv --algo depthwise --dtype fp16 --dtype fp32 --dtype bf16 --layout nhwc --batch 32 --batch 1
done
for dt in fp16 bf16 fp32; do bench new mbv2_$dt --suite mobilenet_v2 --dtype $dt --layout nhwc --batch 32 --batch 1; done
say cudnn
timeout 150 python3 bench/torch_baseline.py --shapes $D/dw_layers.csv --suite mobilenet_v2 --config fp16_nhwc --config fp32_nhwc --config bf16_nhwc \
  --batch 1 --batch 32 --json "$OUT/cudnn.json" > "$OUT/cudnn.txt" 2> "$OUT/cudnn.err"
echo "exit $?"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
