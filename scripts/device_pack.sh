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
# and rejects its feature struct.  It needs glibc 2.38 / GLIBCXX_3.4.32, which the device image
# (Ubuntu 24.04) has and Debian 12 has not: carried only.  The loader stays Debian 12's (.gl):
# Debian 13's cannot load the container's NVIDIA ICD (vk_icdGetInstanceProcAddr fails).
fetch_trixie() {  # fetch_trixie DEST_DIR PACKAGE...
  local dest=$1; shift
  local st; st=$(mktemp -d); mkdir -p "$st/etc/preferences.d" "$st/lists/partial" "$st/cache/archives/partial" "$dest"; : > "$st/status"
  echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian trixie main" > "$st/etc/sources.list"
  local o=(-o "Dir::Etc=$st/etc" -o "Dir::State=$st" -o "Dir::State::Lists=$st/lists" -o "Dir::Cache=$st/cache"
           -o "Dir::State::status=$st/status" -o APT::Architecture=amd64 -o APT::Architectures=amd64 -o APT::Sandbox::User=root)
  apt-get "${o[@]}" update -qq && (cd "$dest" && apt-get "${o[@]}" download -qq "$@")
  rm -rf "$st"
}
# .gl: the Vulkan loader and libglvnd (NVIDIA's Vulkan ICD lives in libGLX_nvidia, which needs
# libGLdispatch; without it vk_icdGetInstanceProcAddr returns null and no driver is found).
if ! ls .gl/libvulkan1_1.3*.deb .gl/libglvnd0_*.deb >/dev/null 2>&1; then
  rm -rf .gl; mkdir -p .gl
  (cd .gl && apt-get -o APT::Sandbox::User=root download -qq libvulkan1/bookworm libegl1/bookworm libglvnd0/bookworm \
     libopengl0/bookworm libgl1/bookworm libglx0/bookworm libgles2/bookworm)
fi
L=build/_device/layer
if [ ! -f "$L/usr/lib/x86_64-linux-gnu/libVkLayer_khronos_validation.so" ]; then
  fetch_trixie "$PWD/build/_device" vulkan-validationlayers
  dpkg-deb -x build/_device/vulkan-validationlayers_*.deb "$L"
fi
cp "$L/usr/lib/x86_64-linux-gnu/libVkLayer_khronos_validation.so" .carry/layer/
sed 's|"library_path": *"[^"]*"|"library_path": "./libVkLayer_khronos_validation.so"|' \
  "$L/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json" > .carry/layer/VkLayer_khronos_validation.json
strip .carry/bin/* .carry/lib/libvkconv.so.*.*.* 2>/dev/null || true
du -sh .carry
