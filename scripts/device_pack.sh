#!/usr/bin/env bash
# Packs what scripts/device_run.sh needs into .carry/ (ignored by git): the release binaries of
# BUILD (default build-dev), libvkconv, and this machine's Khronos validation layer.
set -euo pipefail
cd "$(dirname "$0")/.."
B=${1:-build-dev}
rm -rf .carry; mkdir -p .carry/bin .carry/lib .carry/layer
cp "$B/tools/vkconv-info" "$B/bench/vkconv-bench" "$B/tests/vkconv_tests" .carry/bin/
cp -P "$B"/src/libvkconv.so* .carry/lib/
# Debian 13's validation layer (1.4.309): Debian 12's 1.3.239 predates VK_KHR_cooperative_matrix
# and flags its feature struct as unknown.  It needs glibc 2.38 / GLIBCXX_3.4.32, which the
# device image (Ubuntu 24.04) has but Debian 12 has not, so it is only carried, never run here.
L=build/_device/layer
if [ ! -f "$L/usr/lib/x86_64-linux-gnu/libVkLayer_khronos_validation.so" ]; then
  st=$(mktemp -d); mkdir -p "$st/etc" "$st/lists/partial" "$st/cache/archives/partial" "$L"; : > "$st/status"
  echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian trixie main" > "$st/etc/sources.list"
  o=(-o "Dir::Etc=$st/etc" -o "Dir::State=$st" -o "Dir::State::Lists=$st/lists" -o "Dir::Cache=$st/cache"
     -o "Dir::State::status=$st/status" -o APT::Architecture=amd64 -o APT::Architectures=amd64 -o APT::Sandbox::User=root)
  apt-get "${o[@]}" update -qq && (cd "$st" && apt-get "${o[@]}" download -qq vulkan-validationlayers)
  dpkg-deb -x "$st"/vulkan-validationlayers_*.deb "$L"; rm -rf "$st"
fi
cp "$L/usr/lib/x86_64-linux-gnu/libVkLayer_khronos_validation.so" .carry/layer/
sed 's|"library_path": *"[^"]*"|"library_path": "./libVkLayer_khronos_validation.so"|' \
  "$L/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json" > .carry/layer/VkLayer_khronos_validation.json
strip .carry/bin/* .carry/lib/libvkconv.so.*.*.* 2>/dev/null || true
du -sh .carry
