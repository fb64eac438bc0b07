#!/usr/bin/env bash
# vkconv as a subproject of an application (ctest "subdirectory_consumer"): configure
# tests/subdirectory_consumer with CMake's default generator (Unix Makefiles on Linux, which
# creates no output directory by itself), build the library and examples/adopt_device, run it.
# The shaders come from this build (VKCONV_EMBEDDED_SHADERS): the main build compiled them with the
# default generator already, and compiling them twice would double the CI time this costs; -O0
# without debug information is the quickest C++ build.
#   tests/subdirectory_consumer.sh BUILD_DIR
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$1" && pwd)
work=$build/subdirectory-test
rm -rf "$work"
env -u CMAKE_GENERATOR cmake -S "$src/tests/subdirectory_consumer" -B "$work" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-O0 \
  -DVKCONV_SOURCE_DIR="$src" -DVKCONV_EMBEDDED_SHADERS="$build/generated/embedded_shaders.cpp" > "$work.configure.log" ||
  { cat "$work.configure.log"; echo "subdirectory_consumer: configure failed" >&2; exit 1; }
grep -q 'CMAKE_GENERATOR:INTERNAL=Unix Makefiles' "$work/CMakeCache.txt" ||
  echo "subdirectory_consumer: note: the default generator here is $(sed -n 's/^CMAKE_GENERATOR:INTERNAL=//p' "$work/CMakeCache.txt")"
cmake --build "$work" -j "$(nproc)" > "$work.build.log" ||
  { tail -50 "$work.build.log"; echo "subdirectory_consumer: build failed" >&2; exit 1; }
"$work/adopt_device/adopt_device"
echo "subdirectory_consumer: vkconv built as a subproject with the default generator; the example ran"
