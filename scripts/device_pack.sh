#!/usr/bin/env bash
# Packs what scripts/device_run.sh needs into .carry/ (ignored by git): the release binaries of
# BUILD (default build-dev), libvkconv, and this machine's Khronos validation layer.
set -euo pipefail
cd "$(dirname "$0")/.."
B=${1:-build-dev}
rm -rf .carry; mkdir -p .carry/bin .carry/lib .carry/layer
cp "$B/tools/vkconv-info" "$B/bench/vkconv-bench" "$B/tests/vkconv_tests" .carry/bin/
cp -P "$B"/src/libvkconv.so* .carry/lib/
cp /usr/lib/x86_64-linux-gnu/libVkLayer_khronos_validation.so .carry/layer/
sed 's|"library_path": *"[^"]*"|"library_path": "./libVkLayer_khronos_validation.so"|' \
  /usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json > .carry/layer/VkLayer_khronos_validation.json
strip .carry/bin/* .carry/lib/libvkconv.so.*.*.* 2>/dev/null || true
du -sh .carry
