#!/usr/bin/env bash
# Packs what scripts/device_run.sh needs into .carry/ (ignored by git): the release binaries of
# BUILD (default build-dev), libvkconv, and this machine's Khronos validation layer.
set -euo pipefail
cd "$(dirname "$0")/.."
B=${1:-build-dev}
rm -rf .carry; mkdir -p .carry/bin .carry/lib .carry/layer
cp "$B/tools/vkconv-info" "$B/bench/vkconv-bench" "$B/tests/vkconv_tests" .carry/bin/
cp -P "$B"/src/libvkconv.so* .carry/lib/
# OLD_BUILD=dir, MORE_BUILDS="name=dir ...": other builds' vkconv-bench + libvkconv, as .carry/old
# and .carry/<name>, for A/B runs in one call (scripts/device_run.sh with BUILDS="new old").
pack_build() {  # pack_build NAME DIR
  mkdir -p ".carry/$1/bin" ".carry/$1/lib"
  cp "$2/bench/vkconv-bench" ".carry/$1/bin/"
  cp -P "$2"/src/libvkconv.so* ".carry/$1/lib/"
}
[ -z "${OLD_BUILD:-}" ] || pack_build old "$OLD_BUILD"
for nb in ${MORE_BUILDS:-}; do pack_build "${nb%%=*}" "${nb#*=}"; done
# The validation layer: Debian 12's 1.3.239 predates VK_KHR_cooperative_matrix and rejects its
# feature struct; Debian 13's 1.4.309 predates VK_KHR_shader_bfloat16 (1.4.311) and, on a device
# with bf16 cooperative matrices, reports the extension and the bf16 shaders (SPV_KHR_bfloat16) as
# errors.  So Debian forky's (testing; 1.4.363 when written) where it still runs on the device image
# (Ubuntu 24.04: glibc 2.39, GLIBCXX_3.4.33), else Debian 13's.  Both need more than Debian 12 has:
# carried only.  The loader stays Debian 12's (.gl): Debian 13's cannot load the container's
# NVIDIA ICD (vk_icdGetInstanceProcAddr fails).
fetch_debian() {  # fetch_debian SUITE DEST_DIR PACKAGE...
  local suite=$1 dest=$2; shift 2
  local st; st=$(mktemp -d); mkdir -p "$st/etc/preferences.d" "$st/lists/partial" "$st/cache/archives/partial" "$dest"; : > "$st/status"
  echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $suite main" > "$st/etc/sources.list"
  local o=(-o "Dir::Etc=$st/etc" -o "Dir::State=$st" -o "Dir::State::Lists=$st/lists" -o "Dir::Cache=$st/cache"
           -o "Dir::State::status=$st/status" -o APT::Architecture=amd64 -o APT::Architectures=amd64 -o APT::Sandbox::User=root)
  local rc=0
  apt-get "${o[@]}" update -qq --error-on=any && (cd "$dest" && apt-get "${o[@]}" download -qq "$@") || rc=$?
  rm -rf "$st"
  return $rc
}
runs_on_device_image() {  # runs_on_device_image LIB.so: needs at most glibc 2.39 and GLIBCXX_3.4.33
  local g x
  g=$(objdump -T "$1" | grep -oE 'GLIBC_2\.[0-9]+' | sort -V | tail -1)
  x=$(objdump -T "$1" | grep -oE 'GLIBCXX_3\.4\.[0-9]+' | sort -V | tail -1)
  [ "$(printf '%s\n' "$g" GLIBC_2.39 | sort -V | tail -1)" = GLIBC_2.39 ] &&
    [ "$(printf '%s\n' "${x:-GLIBCXX_3.4}" GLIBCXX_3.4.33 | sort -V | tail -1)" = GLIBCXX_3.4.33 ]
}
# .gl: the Vulkan loader and libglvnd (NVIDIA's Vulkan ICD lives in libGLX_nvidia, which needs
# libGLdispatch; without it vk_icdGetInstanceProcAddr returns null and no driver is found).
if ! ls .gl/libvulkan1_1.3*.deb .gl/libglvnd0_*.deb >/dev/null 2>&1; then
  rm -rf .gl; mkdir -p .gl
  (cd .gl && apt-get -o APT::Sandbox::User=root download -qq libvulkan1/bookworm libegl1/bookworm libglvnd0/bookworm \
     libopengl0/bookworm libgl1/bookworm libglx0/bookworm libgles2/bookworm)
fi
L=build/_device/layer
if [ ! -f "$L/usr/lib/x86_64-linux-gnu/libVkLayer_khronos_validation.so" ] || [ ! -f "$L/.suite" ]; then
  for suite in forky trixie; do
    rm -rf "$L" build/_device/vulkan-validationlayers_*.deb
    if fetch_debian "$suite" "$PWD/build/_device" vulkan-validationlayers; then
      dpkg-deb -x build/_device/vulkan-validationlayers_*.deb "$L"
      if runs_on_device_image "$L/usr/lib/x86_64-linux-gnu/libVkLayer_khronos_validation.so"; then
        echo "$suite $(dpkg-deb -W --showformat='${Version}' build/_device/vulkan-validationlayers_*.deb)" > "$L/.suite"
        break
      fi
      echo "device_pack: $suite's validation layer needs a newer glibc/libstdc++ than the device image" >&2
    fi
    rm -rf "$L"
  done
  [ -f "$L/.suite" ] || { echo "device_pack: no usable validation layer" >&2; exit 1; }
  [ "$(cut -d' ' -f1 "$L/.suite")" = forky ] ||
    echo "device_pack: Debian 13's validation layer (1.4.309) reports bf16 cooperative-matrix shaders as errors" >&2
fi
echo "validation layer: Debian $(cat "$L/.suite")"
cp "$L/usr/lib/x86_64-linux-gnu/libVkLayer_khronos_validation.so" .carry/layer/
sed 's|"library_path": *"[^"]*"|"library_path": "./libVkLayer_khronos_validation.so"|' \
  "$L/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json" > .carry/layer/VkLayer_khronos_validation.json
strip .carry/bin/* .carry/lib/libvkconv.so.*.*.* 2>/dev/null || true
# The layer is 34 MB of the device tool's 64 MiB (working tree included); xz makes it 7:
# scripts/device_run.sh unpacks it.
tar -C .carry -cJf .carry/layer.tar.xz layer && rm -rf .carry/layer
du -sh .carry
