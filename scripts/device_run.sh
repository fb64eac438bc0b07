#!/usr/bin/env bash
# Runs on a lent NVIDIA machine (no network, no Vulkan loader installed), from the repository
# root, with .gl (the Debian libvulkan1 .deb) and .carry (binaries built on the dev machine by
# scripts/device_pack.sh) carried along.  Results go to $OUT.
#   scripts/device_run.sh info|tests|bench-fp32|bench-fp16|tiles|cmtiles|levels|ab|abfp32|abtile|splitsweep|cmprobe|wino|wino2|wino3|final-fp32|final2|fp16-check|epi|epivar|all
set -uo pipefail
what=${1:-all}
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
ls /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json >/dev/null 2>&1 ||
  export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
C=$PWD/.carry
export LD_LIBRARY_PATH=$C/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
[ -f "$C/layer.tar.xz" ] && [ ! -d "$C/layer" ] && tar -C "$C" -xJf "$C/layer.tar.xz"  # scripts/device_pack.sh
export VK_LAYER_PATH=$C/layer
# Debian 12's loader (the one that loads this container's NVIDIA ICD) asks vkGetDeviceProcAddr
# for vkGetPhysicalDeviceVideoEncodeQualityLevelPropertiesKHR while building its own dispatch
# table; the 1.4 layer warns about that.  It is the loader's call, not vkconv's: filtered by ID.
export VK_LAYER_MESSAGE_ID_FILTER=WARNING-vkGetDeviceProcAddr-device
export VKCONV_CACHE_DIR=/tmp/vkconv-cache VKCONV_SUITES_DIR=$PWD/bench/suites
export PYTHONUNBUFFERED=1
B="$C/bin/vkconv-bench --suites-dir bench/suites"
B32="--suite resnet50 --suite vgg16 --suite mobilenet_v2 --suite retinanet_head"
say() { echo "== $* ($(date +%T))"; }
# run_build old|alt|new ARGS...: that build's vkconv-bench (.carry/<build>, new: .carry itself) with its
# own libvkconv and pipeline cache.
# With RUN_TIMEOUT set, under `timeout $RUN_TIMEOUT`.
run_build() {
  local v=$1; shift
  local d=$C; [ "$v" = new ] || d=$C/$v
  LD_LIBRARY_PATH=$d/lib VKCONV_CACHE_DIR=/tmp/vkconv-cache-$v ${RUN_TIMEOUT:+timeout "$RUN_TIMEOUT"} "$d/bin/vkconv-bench" \
    --suites-dir bench/suites "$@"
}
# bench_checked BUILD NAME ARGS...: that build's vkconv-bench with every row --check'ed ($RUN_TIMEOUT s,
# default 150), $OUT/NAME.json and NAME.txt, the exit status and the summary lines printed (the helper
# each session-15 run.sh under docs/results/h200_s15/ defined for itself).
bench_checked() {
  local v=$1 name=$2; shift 2
  say "$name"
  RUN_TIMEOUT=${RUN_TIMEOUT:-150} run_build "$v" --check --json "$OUT/$name.json" "$@" > "$OUT/$name.txt" 2>&1
  echo "exit $?"; sed -n '/== Summary/,$p' "$OUT/$name.txt" | grep -vE '^(== |suite |$)'
}
# cm_tile_b32 BUILD TILE JSON: the coopmat tile forced on the b32 suites (fp16 NHWC, checked), that
# build (old|alt|new), summary lines only.
cm_tile_b32() {
  run_build "$1" $B32 --batch 32 --dtype fp16 --layout nhwc --algo implicit_gemm_coopmat --tile "$2" --check \
    --warmup-ms 200 --json "$OUT/$3" 2>&1 | sed -n '/== Summary/,$p' | head -7
}
# cudnn_fp32: cuDNN fp32 NCHW (TF32 off) at batch 1 and 32: cudnn_fp32.json.
cudnn_fp32() {
  say "cuDNN fp32 nchw"
  python3 bench/torch_baseline.py --config fp32_nchw --batch 1 --batch 32 --json "$OUT/cudnn_fp32.json" > /dev/null 2> "$OUT/cudnn_fp32.err"
  echo "exit $?"
}
# fp32_nchw BUILD BATCH NAME: that build's router on the fp32 NCHW suites at BATCH (b32: $B32,
# b1: all), checked: $OUT/NAME_b<BATCH>_<BUILD>.{json,txt}, summary lines printed.
fp32_nchw() {
  local v=$1 b=$2 suites=; [ "$2" = 1 ] || suites=$B32
  say "$3 fp32 nchw b$b $v"
  run_build "$v" $suites --batch "$b" --dtype fp32 --layout nchw --check --json "$OUT/$3_b${b}_$v.json" > "$OUT/$3_b${b}_$v.txt" 2>&1
  echo "exit $?"; sed -n '/== Summary/,$p' "$OUT/$3_b${b}_$v.txt" | head -9
}
# fp32_auto_and_cudnn: this build's router on the fp32 NCHW suites (b32: $B32, b1: all), checked,
# then cuDNN on the same batches: fp32_b{32,1}.json, cudnn_fp32.json (the README's fp32 columns).
fp32_auto_and_cudnn() {
  for b in 32 1; do
    local suites=; [ "$b" = 1 ] || suites=$B32
    say "fp32 b$b"
    run_build new $suites --batch $b --dtype fp32 --layout nchw --check --json "$OUT/fp32_b${b}.json" > "$OUT/fp32_b${b}.txt" 2>&1
    echo "exit $?"; sed -n '/== Summary/,$p' "$OUT/fp32_b${b}.txt" | head -9; grep -c retimed "$OUT/fp32_b${b}.txt"
  done
  cudnn_fp32
}
# tests_validated LOG SECONDS FILTER: vkconv_tests with the validation layer, its summary lines.
tests_validated() {
  say "tests $3 (validation layer on)"
  VKCONV_VALIDATION=1 VKCONV_REQUIRE_VALIDATION=1 timeout "$2" $C/bin/vkconv_tests --gtest_filter="$3" > "$OUT/$1" 2>&1
  echo "vkconv_tests exit $?"; grep -E '^\[  (PASSED|FAILED|SKIPPED) +\] [0-9]+ test' "$OUT/$1"; grep -E '^\[  FAILED' "$OUT/$1" | head
}
# SM clock, power and temperature every 250 ms while this runs (explains slow outliers).
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv -lms 250 \
  > "$OUT/smi_$what.csv" 2>/dev/null & smi=$!

if [[ $what == info || $what == all ]]; then
  say vkconv-info
  $C/bin/vkconv-info --validation | tee "$OUT/info.txt"
  $C/bin/vkconv-info --json > "$OUT/info.json"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv | tee -a "$OUT/info.txt"
fi
if [[ $what == tests || $what == all ]]; then
  say "vkconv_tests (validation layer on)"
  VKCONV_VALIDATION=1 VKCONV_REQUIRE_VALIDATION=1 $C/bin/vkconv_tests --gtest_brief=1 > "$OUT/tests.log" 2>&1
  echo "vkconv_tests exit $?"; grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$OUT/tests.log" | sort | uniq -c | sort -rn | head -20
  grep -E "^\[  FAILED" "$OUT/tests.log" | head
fi
# vkconv and cuDNN for one (dtype, layout, batches): vkconv at batch 1 over every suite and at
# batch 32 over $B32 (the suites the anchors time at 32; SD-VAE and the RDNA1 matrix: batch 1
# only), then torch_baseline with the same batches.  Files: vkconv_<dtype>_b<N>.json, cudnn_<dtype>.json.
bench_pair() {  # bench_pair DTYPE LAYOUT BATCH...
  local dt=$1 lay=$2; shift 2
  say "vkconv $dt $lay, batch $*"
  : > "$OUT/vkconv_$dt.txt"; : > "$OUT/vkconv_$dt.err"
  for b in "$@"; do
    local suites=; [ "$b" = 1 ] || suites=$B32
    $B --dtype "$dt" --layout "$lay" --batch "$b" $suites --check --json "$OUT/vkconv_${dt}_b$b.json" >> "$OUT/vkconv_$dt.txt" 2>> "$OUT/vkconv_$dt.err"
    echo "exit $?"
  done
  tail -12 "$OUT/vkconv_$dt.txt"
  say "cuDNN $dt $lay"
  python3 bench/torch_baseline.py --config "${dt}_$lay" $(printf -- '--batch %s ' "$@") --json "$OUT/cudnn_$dt.json" > /dev/null 2> "$OUT/cudnn_$dt.err"
  echo "exit $?"
}
if [[ $what == bench-fp32 || $what == all ]]; then
  say "peak probe"; $B --peak | tee "$OUT/peak.txt"
  bench_pair fp32 nchw 1 32
fi
if [[ $what == bench-fp16 || $what == all ]]; then
  bench_pair fp16 nhwc 1 32
  bench_pair bf16 nhwc 1 32
fi
if [[ $what == tiles ]]; then
  # implicit_gemm tile configurations forced one by one on the big-GEMM suite (tuning data).
  for t in 128x128x8/8x8 128x64x8/8x4 128x64x16/8x4 64x64x8/4x4; do
    say "tile $t"
    $B --suite vgg16 --batch 32 --dtype fp32 --layout nchw --layout nhwc --algo implicit_gemm --tile "$t" --json "$OUT/tile_${t//\//_}.json" 2>/dev/null | grep -E "^vgg16 +32"
  done
fi
if [[ $what == tiles || $what == cmtiles ]]; then
  # Every coopmat tile forced, one process each (interleaving configurations in one process
  # distorts timings: docs/perf-notes.md item 8), on the b32 suites, then the router's choice.
  for t in ${CM_TILES:-128x128x32/2x4 128x64x32/2x2 64x64x32/2x2 256x128x32/4x2s1 128x256x32/2x4s1 128x128x64/2x4s1 256x64x32/4x2s1 64x256x32/1x8s1} auto; do
    say "coopmat tile $t"
    tile=(--tile "$t"); [ "$t" = auto ] && tile=()
    $B $B32 --batch 32 --dtype fp16 --layout nhwc --algo implicit_gemm_coopmat "${tile[@]}" --check --json "$OUT/cmtile_${t//\//_}.json" 2>/dev/null | grep -E "^(resnet50|vgg16|mobilenet_v2|retinanet_head) +32 fp16"
  done
fi
if [[ $what == ab ]]; then
  # A/B of two builds on the same machine: .carry/old holds the baseline build's vkconv-bench and
  # libvkconv (scripts/device_pack.sh OLD_BUILD=...).  Separate processes and pipeline caches,
  # alternating per configuration so that clock drift hits both alike.
  [ -x "$C/old/bin/vkconv-bench" ] || { echo "ab: no .carry/old build"; exit 1; }
  ab_one() {  # ab_one NAME ARGS...: old then new
    local name=$1; shift
    for v in old new; do
      say "ab $name $v"
      run_build $v "$@" --check --json "$OUT/ab_${name}_$v.json" 2>&1 | sed -n '/== Summary/,$p'
    done
  }
  ab_one fp16_b32 $B32 --batch 32 --dtype fp16 --layout nhwc
  ab_one fp16_b1 --batch 1 --dtype fp16 --layout nhwc
  # AB_SHORT=1: the fp16 rows only (bench-fp16 and the tests follow in another call or mode).
  [ "${AB_SHORT:-0}" = 1 ] || {
  ab_one bf16_b32 --suite vgg16 --suite retinanet_head --batch 32 --dtype bf16 --layout nhwc
  say "coopmat tests (validation layer on)"
  VKCONV_VALIDATION=1 VKCONV_REQUIRE_VALIDATION=1 timeout 240 $C/bin/vkconv_tests --gtest_brief=1 \
    --gtest_filter='*oopmat*:*SplitK*' > "$OUT/tests_coopmat.log" 2>&1
  echo "vkconv_tests exit $?"; grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$OUT/tests_coopmat.log" | head -20
  }
fi
if [[ $what == cmprobe ]]; then
  # Coopmat tiles forced one per process (CM_PROBE_TILES) on the b32 suites, then the .carry/old
  # build's 128x256x32 tile against this build's (old then new).  (The ablation runs of
  # perf-notes item 26 used commit 51968e8, whose shader had a profiling-only ABLATE constant.)
  for t in ${CM_PROBE_TILES:-128x128x16/2x4}; do
    say "tile $t"; cm_tile_b32 new "$t" "cmtile_${t//\//_}.json"
  done
  if [ -x "$C/old/bin/vkconv-bench" ]; then
    for v in old new; do
      say "128x256x32/2x4s1 $v"; cm_tile_b32 $v 128x256x32/2x4s1 "cm256_$v.json"
    done
  fi
fi
if [[ $what == abtile ]]; then
  # One new coopmat tile (AB_TILE): forced on the b32 suites, then the .carry/old build's router
  # and this build's alternating (fp16 NHWC b32), cuDNN fp16 b32, and the coopmat tests.
  say "tile $AB_TILE"; cm_tile_b32 new "$AB_TILE" "cmtile_${AB_TILE//\//_}.json"
  for v in old new; do
    say "auto $v"
    run_build $v $B32 --batch 32 --dtype fp16 --layout nhwc --check --json "$OUT/ab_fp16_b32_$v.json" 2>&1 | sed -n '/== Summary/,$p' | head -7
  done
  say "cuDNN fp16 nhwc b32"
  python3 bench/torch_baseline.py --config fp16_nhwc --batch 32 --json "$OUT/cudnn_fp16.json" > /dev/null 2> "$OUT/cudnn_fp16.err"
  echo "exit $?"
  say "coopmat tests (validation layer on)"
  VKCONV_VALIDATION=1 VKCONV_REQUIRE_VALIDATION=1 timeout 120 $C/bin/vkconv_tests --gtest_filter='*oopmat*' > "$OUT/tests_coopmat.log" 2>&1
  echo "vkconv_tests exit $?"; grep -E '^\[  (PASSED|FAILED|SKIPPED) +\] [0-9]+ test' "$OUT/tests_coopmat.log"
  grep -c "^\[       OK \].*${AB_TILE//\//_}" "$OUT/tests_coopmat.log"
fi
if [[ $what == splitsweep ]]; then
  # implicit_gemm (one pass) and implicit_gemm_splitk with 2..16 splits forced, fp32 NCHW batch 1,
  # one process each, then the router's choice: data for the split-K cost model.
  for s in ${SPLITS:-1 2 4 8 16 auto}; do
    say "split $s"
    case $s in 1) algo=(--algo implicit_gemm);; auto) algo=();; *) algo=(--algo implicit_gemm_splitk --tile "s$s");; esac
    $B --suite resnet50 --suite vgg16 --suite retinanet_head --suite sd_vae_decoder --suite rdna1_matrix --batch 1 \
      --dtype fp32 --layout nchw "${algo[@]}" --check --warmup-ms 100 --json "$OUT/split_$s.json" > "$OUT/split_$s.txt" 2>&1
    echo "exit $?"; sed -n '/== Summary/,$p' "$OUT/split_$s.txt" | head -9
  done
fi
if [[ $what == abfp32 ]]; then
  # fp32 NCHW A/B(/C) of builds in .carry/old, .carry/alt (if packed) and .carry (new), alternating
  # per batch, then cuDNN (TF32 off) on the same batches: the scalar router's changes.
  for b in 1 32; do
    for v in old alt new; do
      [ $v = new ] || [ -x "$C/$v/bin/vkconv-bench" ] || continue
      [ "$b" = 32 ] && [ $v = alt ] && continue
      fp32_nchw "$v" "$b" abfp32
    done
  done
  cudnn_fp32
fi
if [[ $what == wino ]]; then
  # Winograd F(2x2,3x3) in the fp32 router: the .carry/old build's router against this build's,
  # alternating per batch (fp32 NCHW, checked), cuDNN fp32 (TF32 off) on the same batches, then
  # winograd forced on the b32 suites with a 1 GiB workspace (one chunk), and its tests.
  for b in 32 1; do
    for v in old new; do
      fp32_nchw "$v" "$b" wino
    done
  done
  cudnn_fp32
  say "winograd forced, b32, 1 GiB workspace"
  run_build new --suite vgg16 --suite retinanet_head --batch 32 --dtype fp32 --layout nchw --algo winograd --workspace-mib 1024 \
    --check --json "$OUT/wino_forced_b32_1g.json" > "$OUT/wino_forced_b32_1g.txt" 2>&1
  echo "exit $?"; sed -n '/== Summary/,$p' "$OUT/wino_forced_b32_1g.txt" | head -6
  tests_validated tests_wino.log 120 '*inograd*:*SplitK*'
fi
if [[ $what == wino2 ]]; then
  # After the 512 MiB default workspace: this build's fp32 NCHW suites and cuDNN fp32 in one call
  # (the README's fp32 columns), then fp16 NHWC old/new alternating (the coopmat split-K also
  # sees the larger default), then the winograd, split-K and edge tests with the validation layer.
  fp32_auto_and_cudnn
  for b in 32 1; do
    suites=; [ "$b" = 1 ] || suites=$B32
    for v in old new; do
      say "fp16 b$b $v"
      run_build $v $suites --batch $b --dtype fp16 --layout nhwc --check --json "$OUT/fp16_b${b}_$v.json" > "$OUT/fp16_b${b}_$v.txt" 2>&1
      echo "exit $?"; sed -n '/== Summary/,$p' "$OUT/fp16_b${b}_$v.txt" | head -9
    done
  done
  tests_validated tests_wino2.log 110 '*inograd*:*SplitK*:All/Edges.*:*Router*:*Routing*'
fi
if [[ $what == wino3 ]]; then
  # F(4x4,3x3) next to F(2x2,3x3): this build's fp32 NCHW suites and cuDNN fp32 in one call (the
  # README's fp32 columns), winograd with each variant forced (the router's model against the
  # measurement), then the winograd and exact-edge tests with the validation layer.
  fp32_auto_and_cudnn
  for t in 4x4 2x2; do
    for b in 32 1; do
      suites="--suite vgg16 --suite retinanet_head --suite resnet50"; [ "$b" = 1 ] && suites="$suites --suite sd_vae_decoder --suite rdna1_matrix"
      say "winograd $t b$b"
      run_build new $suites --batch $b --dtype fp32 --layout nchw --algo winograd --tile $t --check --warmup-ms 100 \
        --json "$OUT/wino${t}_b$b.json" > "$OUT/wino${t}_b$b.txt" 2>&1
      echo "exit $?"; sed -n '/== Summary/,$p' "$OUT/wino${t}_b$b.txt" | head -8
    done
  done
  tests_validated tests_wino3.log 90 '*inograd*:*SplitKPlan*:All/EdgesExact.*'
fi
if [[ $what == final-fp32 || $what == final2 ]]; then
  # The README's fp32 columns: this build's fp32 NCHW suites and cuDNN fp32 (TF32 off) in one call,
  # then the winograd tests with the validation layer.
  fp32_auto_and_cudnn
  if [[ $what == final2 ]]; then  # the bench's settled warm-up: fp16 b1 again (two layers were timed mid-ramp)
    say "fp16 b1"
    run_build new --batch 1 --dtype fp16 --layout nhwc --check --json "$OUT/fp16_b1.json" > "$OUT/fp16_b1.txt" 2>&1
    echo "exit $?"; sed -n '/== Summary/,$p' "$OUT/fp16_b1.txt" | head -9
  else
    tests_validated tests_final.log 100 '*inograd*:*SplitKPlan*'
  fi
fi
if [[ $what == fp16-check ]]; then
  # fp16 NHWC b1/b32 with this build (the coopmat kernel is routed first, so winograd should not
  # change these: compare with wino2/'s fp16 rows), then the winograd tests at subgroup 32.
  for b in 32 1; do
    suites=; [ "$b" = 1 ] || suites=$B32
    say "fp16 b$b"
    run_build new $suites --batch $b --dtype fp16 --layout nhwc --check --json "$OUT/fp16_b${b}.json" > "$OUT/fp16_b${b}.txt" 2>&1
    echo "exit $?"; sed -n '/== Summary/,$p' "$OUT/fp16_b${b}.txt" | head -9; grep -c winograd "$OUT/fp16_b${b}.txt"
  done
fi
if [[ $what == epi ]]; then
  # Scalar implicit GEMM changes (perf-notes items 30-31): .carry/old (the baseline), .carry/alt
  # (a variant, if packed) and this build, fp32 NCHW, alternating per batch in EPI_ORDER; cuDNN
  # fp32 (TF32 off) on the same batches; fp32 NHWC b32 old/new (EPI_NHWC=0: not); the tests of the
  # kernel's paths (implicit_gemm, split-K, winograd's GEMM) with the validation layer.
  # The driver's register counts and code sizes of the implicit_gemm pipelines first (STATS_BUILDS,
  # default this build's; empty: none; implicit_gemm's pipelines only: every algorithm's take ~4
  # minutes per build).
  for v in ${STATS_BUILDS-new}; do
    say "shader stats $v"
    run_build $v --shader-stats --algo implicit_gemm > "$OUT/stats_$v.txt" 2>&1; echo "exit $?"
    grep -E "implicit_gemm(_splitk)?_f32 " "$OUT/stats_$v.txt" | awk '{print $5, $9, $13, $NF, $(NF-1), $(NF-2)}' | head -16
  done
  for b in 32 1; do
    for v in ${EPI_ORDER:-old alt new}; do
      [ $v = new ] || [ -x "$C/$v/bin/vkconv-bench" ] || continue
      fp32_nchw "$v" "$b" epi
    done
  done
  cudnn_fp32
  for v in $( [ "${EPI_NHWC:-1}" = 1 ] && echo old new ); do
    say "epi fp32 nhwc b32 $v"
    run_build $v $B32 --batch 32 --dtype fp32 --layout nhwc --check --json "$OUT/epi_nhwc_b32_$v.json" > "$OUT/epi_nhwc_b32_$v.txt" 2>&1
    echo "exit $?"; sed -n '/== Summary/,$p' "$OUT/epi_nhwc_b32_$v.txt" | head -7
  done
  tests_validated tests_epi.log ${TEST_S:-100} "${TEST_FILTER:-*IgemmTiles*:*SplitK*:All/Edges*__implicit_gemm:*inograd*}"
fi
if [[ $what == epivar ]]; then
  # Variants of the scalar implicit GEMM (VARIANTS: builds packed with MORE_BUILDS, plus old and
  # new): each build's driver register counts for implicit_gemm_f32 (its pipelines only: every
  # algorithm's take ~4 minutes), then ResNet-50 b32 (VAR_LAYOUTS, default NCHW and NHWC) and
  # MobileNetV2 b32 NCHW, unchecked (the tests check the one kept).
  for v in old new ${VARIANTS:-}; do
    say "variant $v"
    run_build $v --shader-stats --algo implicit_gemm > "$OUT/stats_$v.txt" 2>&1
    grep -E "implicit_gemm_f32 " "$OUT/stats_$v.txt" | awk '{print $5, $NF, $(NF-1), $(NF-2), $(NF-3)}' | sort -u | head -14 | tr '\n' ';'; echo
    for lay in ${VAR_LAYOUTS:-nchw nhwc}; do
      run_build $v --suite resnet50 $( [ $lay = nchw ] && echo --suite mobilenet_v2 ) --batch 32 --dtype fp32 --layout $lay \
        --json "$OUT/var_${v}_$lay.json" 2>&1 | grep -E "^(resnet50|mobilenet_v2) +32"
    done
  done
fi
if [[ $what == levels || $what == all ]]; then
  # Every algorithm on each layer: the optimization-level table (ResNet-50 b32 fp32, NCHW and
  # NHWC) and the padding table (implicit_gemm masks vs implicit_gemm_analytic).
  say "levels: resnet50 b32 fp32 --algo all"
  $B --suite resnet50 --batch 32 --dtype fp32 --layout nchw --layout nhwc --algo all --check --json "$OUT/levels_resnet50_b32.json" > "$OUT/levels.txt" 2>&1
  echo "exit $?"
  say "padding: rdna1_matrix + resnet50 b1 fp32 --algo all"
  $B --suite rdna1_matrix --suite resnet50 --batch 1 --dtype fp32 --layout nchw --layout nhwc --algo all --check --json "$OUT/levels_b1.json" >> "$OUT/levels.txt" 2>&1
  echo "exit $?"; grep -E "passed|failed" "$OUT/levels.txt" | tail -2
fi
say done
kill $smi 2>/dev/null
# The device tool returns at most 8 files: pack everything into one archive.
# One archive per mode, so several modes in one call keep all their files.
(cd "$OUT" && files=$(ls | grep -v -e '\.tgz$' -e '\.log$') && [ -n "$files" ] && tar czf "results-$what.tgz" $files && rm -f $files) || true
