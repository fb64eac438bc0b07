#!/usr/bin/env bash
# The installed package, used as an application would (ctest "package_consumer"): install this
# build into a fresh prefix, then build examples/adopt_device against it twice, through
# find_package(vkconv) and through pkg-config, with the system's Vulkan headers and loader, and run
# both on the default device; run the installed tools from outside the source tree.
#   tests/package_consumer.sh BUILD_DIR
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$1" && pwd)
work=$build/package-test
rm -rf "$work"; mkdir -p "$work"
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" > "$work/install.log"
fail() { echo "package_consumer: $*" >&2; exit 1; }
libdir=$(dirname "$(find "$prefix" -name 'libvkconv.so' | head -1)")
[ -d "$libdir" ] || fail "no libvkconv.so under $prefix"
for f in include/vkconv/vkconv.hpp bin/vkconv-info bin/vkconv-bench share/vkconv/bench/suites/resnet50.csv \
         share/vkconv/bench/torch_baseline.py share/vkconv/bench/profiles/nvidia_h200.json; do
  [ -e "$prefix/$f" ] || fail "$f was not installed"
done
[ -f "$libdir/cmake/vkconv/vkconvConfig.cmake" ] || fail "no CMake package in $libdir/cmake/vkconv"
[ -f "$libdir/pkgconfig/vkconv.pc" ] || fail "no pkg-config file in $libdir/pkgconfig"
# Nothing of the source or build tree may leak into the installed interface.
if grep -rlE "$src|$build" "$libdir/cmake/vkconv" "$libdir/pkgconfig"; then fail "installed package files name the build tree"; fi

# 0. Each installed header on its own, against the system's Vulkan headers, warning-free under the
#    strictest flags an application might build with.
for h in "$prefix"/include/vkconv/*.hpp; do
  echo "#include <vkconv/$(basename "$h")>" | ${CXX:-c++} -std=c++20 -x c++ -fsyntax-only -Wall -Wextra -Wpedantic \
    -Wshadow -Wconversion -Werror -I"$prefix/include" - || fail "installed header $(basename "$h") does not compile alone"
done

# 1. CMake: find_package(vkconv) from the prefix alone (no VKCONV_* variables, no source tree).
cmake -S "$src/examples/adopt_device" -B "$work/cmake" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" > "$work/cmake-configure.log" || { cat "$work/cmake-configure.log"; fail "configure (find_package)"; }
cmake --build "$work/cmake" > "$work/cmake-build.log" || { cat "$work/cmake-build.log"; fail "build (find_package)"; }
"$work/cmake/adopt_device"

# 2. pkg-config, a plain compiler line.
export PKG_CONFIG_PATH=$libdir/pkgconfig
flags=$(pkg-config --cflags --libs vkconv) || fail "pkg-config vkconv"
${CXX:-c++} -std=c++20 -O1 "$src/examples/adopt_device/main.cpp" -o "$work/adopt_device_pc" $flags
LD_LIBRARY_PATH=$libdir "$work/adopt_device_pc"

# 3. The installed tools, from elsewhere: vkconv-info finds its library, vkconv-bench its suites.
cd "$work"
env -u VKCONV_SUITES_DIR "$prefix/bin/vkconv-info" > info.txt || fail "installed vkconv-info"
env -u VKCONV_SUITES_DIR "$prefix/bin/vkconv-bench" --suite resnet50 --batch 1 --dtype fp16 --layout nhwc \
  --caps "$prefix/share/vkconv/bench/profiles/nvidia_h200.json" > plans.txt || fail "installed vkconv-bench --suite resnet50 --caps"
grep -q "layer4.1.conv2" plans.txt || fail "installed vkconv-bench listed no resnet50 plans"
echo "package_consumer: installed, built with find_package and pkg-config, ran; tools ran from $prefix"
