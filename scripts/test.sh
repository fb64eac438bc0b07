#!/usr/bin/env bash
# Sets up, builds and runs every test: the full suite on the default device at its native
# subgroup size and (lavapipe) at subgroup size 4, then an ASan+UBSan build on the host-code
# subset (tests/CMakeLists.txt, label "asan").
#   scripts/test.sh            everything (what CI runs)
#   VKCONV_TEST_QUICK=1 ...    skip the sanitizer build
#   VKCONV_TEST_FULL=1 ...     also every test at both subgroup sizes (ctest label "extended")
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
jobs=$(nproc)
t0=$(date +%s)
# CMake's default generator, as a user's first build would use (a build/ made earlier keeps its own).
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DVKCONV_BUILD_TESTS=ON -DVKCONV_BUILD_BENCH=ON >/dev/null
cmake --build build -j "$jobs"
echo "[test] build: $(( $(date +%s) - t0 )) s"

# The main lavapipe shards run at subgroup size 4 (LP_NATIVE_VECTOR_WIDTH=128); vkconv_tests_sg8 at 8.
labels=full; [ -n "${VKCONV_TEST_FULL:-}" ] && labels='full|extended'
# Two test processes at a time: most of a cold run is single-threaded LLVM compiles in lavapipe.
(cd build && ctest --output-on-failure -j"$jobs" -L "$labels")
echo "[test] full suite: $(( $(date +%s) - t0 )) s"

if [ -z "${VKCONV_TEST_QUICK:-}" ]; then
  # -O1 -g1 (ASan's own advice: line tables are all its reports need) builds in ~0.6x the time of
  # RelWithDebInfo's -O2 -g on a 2-core machine (165 against ~275 s).  The shaders the plain build
  # compiled are reused (VKCONV_EMBEDDED_SHADERS), and only the test binary's host subset is built.
  cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1" \
    -DVKCONV_SANITIZE=ON -DVKCONV_BUILD_BENCH=OFF -DVKCONV_TEST_CACHE_W128="$PWD/build/lavapipe-cache-w128" \
    -DVKCONV_EMBEDDED_SHADERS="$PWD/build/generated/embedded_shaders.cpp" >/dev/null
  ninja -C build-asan -j"$jobs" vkconv_tests vkconv_internal_tests
  # Leaks inside the Vulkan loader, Mesa's JIT and the validation layer are theirs, not ours.
  export ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp:print_suppressions=0
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  # Host-code memory errors are the target here: every host path (validation, adoption, cache,
  # buffers, each algorithm's setup once); pipeline compilation under ASan is ~10x slower.
  (cd build-asan && ctest --output-on-failure -j"$jobs" -L asan)
  echo "[test] sanitizer build + fast suite: $(( $(date +%s) - t0 )) s"
fi
