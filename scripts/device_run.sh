#!/usr/bin/env bash
# Runs a named set of benchmarks or tests on a lent GPU machine (no network, no Vulkan loader
# installed), from the repository root, with .gl and .carry made by scripts/device_pack.sh
# carried along.  Results go to $OUT.
#
#   scripts/device_run.sh info                         vkconv-info (text and --json), the driver
#   scripts/device_run.sh tests [FILTER] [SECONDS]     vkconv_tests with the validation layer on
#   scripts/device_run.sh peak                         vkconv-bench peak: the card's ceilings
#   scripts/device_run.sh bench NAME SHAPES... [-- VKCONV_ARGS...]
#       vkconv-bench SHAPES VKCONV_ARGS --check for each build in $BUILDS, then cuDNN through
#       bench/torch_baseline.py on the same SHAPES, then bench/report.py over them:
#       $OUT/NAME.<build>.{json,txt}, $OUT/NAME.cudnn.json, $OUT/NAME.report/ (markdown).
#       SHAPES are the flags both tools take: --suite, --shapes, --zoo [MODELS], --zoo-part I/N,
#       --batch, --dtype, --layout, --pass fwd|bwd-data|bwd-weight (one pass a run: a training
#       comparison is one NAME per pass).  With --zoo each tool times a distinct shape once; a zoo run
#       too long for one call goes in parts (--zoo-part 1/4 ... 4/4, NAME differing per part),
#       and bench/report.py over every part's JSON files merges them.
#   scripts/device_run.sh zoo-make [MAKE_ZOO_ARGS...]
#       bench/zoo/make_zoo.py with this machine's torch and torchvision into $OUT/zoo (the CSVs
#       and MODELS.txt to commit under bench/zoo/).
#
# Environment: BUILDS="new old" (default "new"; "old" is .carry/old from OLD_BUILD=... at pack
# time; several builds run in turn, in separate processes with their own pipeline caches),
# RUN_TIMEOUT (seconds per vkconv-bench run, default 300), BASELINE=0 (no cuDNN), ZOO_DIR (the
# zoo --zoo reads, default bench/zoo).
# Example, ResNet-50's weight gradients at b32:
#   scripts/device_run.sh bench wgrad_fp16_b32 --suite resnet50 --batch 32 --dtype fp16 --layout nhwc --pass bwd-weight
# Example, the README's 16-bit b32 column:
#   scripts/device_run.sh bench fp16_nhwc_b32 --suite resnet50 --suite vgg16 --suite mobilenet_v2 \
#     --suite retinanet_head --batch 32 --dtype fp16 --layout nhwc
set -uo pipefail
what=${1:-info}; shift || true
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
ls /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json >/dev/null 2>&1 ||
  export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
C=$PWD/.carry
export LD_LIBRARY_PATH=$C/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
[ -f "$C/layer.tar.xz" ] && [ ! -d "$C/layer" ] && tar -C "$C" -xJf "$C/layer.tar.xz"
export VK_LAYER_PATH=$C/layer
# Debian 12's loader (the one that loads this container's NVIDIA ICD) asks vkGetDeviceProcAddr
# for vkGetPhysicalDeviceVideoEncodeQualityLevelPropertiesKHR while building its own dispatch
# table; the 1.4 layer warns about that.  It is the loader's call, not vkconv's: filtered by ID.
export VK_LAYER_MESSAGE_ID_FILTER=WARNING-vkGetDeviceProcAddr-device
export VKCONV_CACHE_DIR=/tmp/vkconv-cache VKCONV_SUITES_DIR=$PWD/bench/suites VKCONV_ZOO_DIR=${ZOO_DIR:-$PWD/bench/zoo}
export PYTHONUNBUFFERED=1
say() { echo "== $* ($(date +%T))"; }

# run_build BUILD ARGS...: that build's vkconv-bench (.carry/<build>; new: .carry itself) with its
# own libvkconv and pipeline cache, under `timeout $RUN_TIMEOUT`.
run_build() {
  local v=$1; shift
  local d=$C; [ "$v" = new ] || d=$C/$v
  LD_LIBRARY_PATH=$d/lib VKCONV_CACHE_DIR=/tmp/vkconv-cache-$v timeout "${RUN_TIMEOUT:-300}" "$d/bin/vkconv-bench" "$@"
}

case $what in
  info)
    say vkconv-info
    "$C/bin/vkconv-info" --validation | tee "$OUT/info.txt"
    "$C/bin/vkconv-info" --json > "$OUT/info.json"
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv | tee -a "$OUT/info.txt" ;;
  tests)
    filter=${1:-*}; seconds=${2:-540}
    say "vkconv_tests $filter (validation layer on)"
    VKCONV_VALIDATION=1 VKCONV_REQUIRE_VALIDATION=1 timeout "$seconds" "$C/bin/vkconv_tests" --gtest_brief=1 \
      --gtest_filter="$filter" > "$OUT/tests.log" 2>&1
    echo "vkconv_tests exit $?"
    grep -E '^\[  (PASSED|FAILED|SKIPPED) +\] [0-9]+ test' "$OUT/tests.log"; grep -E '^\[  FAILED' "$OUT/tests.log" | head ;;
  peak)
    say "peak probe"
    run_build new --peak | tee "$OUT/peak.txt" ;;
  bench)
    name=${1:?bench NAME SHAPES... [-- VKCONV_ARGS...]}; shift
    shapes=(); extra=()
    while [ $# -gt 0 ] && [ "$1" != -- ]; do shapes+=("$1"); shift; done
    [ $# -gt 0 ] && { shift; extra=("$@"); }
    # SM clock, power and temperature every 250 ms while this runs (explains slow outliers).
    nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv -lms 250 \
      > "$OUT/$name.smi.csv" 2>/dev/null & smi=$!
    jsons=()
    for v in ${BUILDS:-new}; do
      say "vkconv $name ($v)"
      run_build "$v" "${shapes[@]}" "${extra[@]}" --check --json "$OUT/$name.$v.json" > "$OUT/$name.$v.txt" 2>&1
      echo "exit $?"; sed -n '/== Summary/,$p' "$OUT/$name.$v.txt" | head -12
      jsons+=("$OUT/$name.$v.json")
    done
    if [ "${BASELINE:-1}" != 0 ]; then
      say "cuDNN $name"
      python3 bench/torch_baseline.py "${shapes[@]}" --zoo-dir "$VKCONV_ZOO_DIR" --json "$OUT/$name.cudnn.json" > /dev/null 2> "$OUT/$name.cudnn.err"
      echo "exit $?"
      jsons+=("$OUT/$name.cudnn.json")
    fi
    kill "$smi" 2>/dev/null
    base=(); [ "${BASELINE:-1}" != 0 ] && base=(--baseline "$OUT/$name.cudnn.json")
    python3 bench/report.py "${jsons[@]}" "${base[@]}" --no-plots --out "$OUT/$name.report" > "$OUT/$name.report.txt" 2>&1
    echo "report exit $?: $OUT/$name.report/" ;;
  zoo-make)
    say "model zoo: bench/zoo/make_zoo.py into $OUT/zoo"
    python3 bench/zoo/make_zoo.py --out "$OUT/zoo" "$@" 2>&1 | tee "$OUT/zoo-make.log"
    echo "make_zoo exit ${PIPESTATUS[0]}"; ls "$OUT/zoo" | wc -l ;;
  *)
    echo "device_run.sh: unknown set '$what' (info, tests, peak, bench, zoo-make)" >&2; exit 2 ;;
esac
