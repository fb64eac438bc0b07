#!/usr/bin/env bash
# A current RADV for the compile lab: Debian forky's (testing) Mesa, Vulkan loader and Mesa's
# amdgpu no-op DRM shim, unpacked with their dependencies into a private prefix (DIR, default
# build/_toolchain/mesa-forky), plus DIR/bin/radv-null, which runs a program on a virtual Radeon:
#
#   DIR/bin/radv-null gfx1201 ./build/bench/vkconv-bench --shader-stats
#
# Why: RADV 25.0 (bookworm-backports, the system Mesa CI tests with) exposes no cooperative
# matrices on RDNA4, and newer compilers allocate registers differently (RADV 26 spilled tiles that
# RADV 25 did not: docs/amd.md).  RADV 26 replaced RADV_FORCE_FAMILY with the DRM
# shim, whose AMDGPU_GPU_ID names the chip (navi10, navi21, navi31, navi33, gfx1201, ...).
# The program runs through forky's own ld.so (glibc 2.41 runs Debian 12's binaries), so nothing
# of it touches the system.  Exit status: 0 when DIR is ready.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$here/build/_toolchain/mesa-forky}
st=$dir/apt
rm -rf "$dir"; mkdir -p "$st/etc/preferences.d" "$st/lists/partial" "$st/cache/archives/partial" "$st/debs" "$dir/root" "$dir/bin"
: > "$st/status"
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian forky main" > "$st/etc/sources.list"
o=(-o "Dir::Etc=$st/etc" -o "Dir::State=$st" -o "Dir::State::Lists=$st/lists" -o "Dir::Cache=$st/cache"
   -o "Dir::State::status=$st/status" -o APT::Architecture=amd64 -o APT::Architectures=amd64
   -o APT::Sandbox::User=root -o Acquire::http::Timeout=30 -o Acquire::Retries=1)
apt-get "${o[@]}" update -qq --error-on=any
# Everything the radeon ICD, the loader, the shim and the validation layer need, recursively
# (virtual packages dropped).
mapfile -t pk < <(apt-cache "${o[@]}" depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
                    --no-replaces --no-enhances mesa-vulkan-drivers libvulkan1 mesa-drm-shim vulkan-validationlayers |
                    grep -v -e '^ ' -e '^<' | sort -u)
(cd "$st/debs" && apt-get "${o[@]}" download -qq "${pk[@]}")
for f in "$st/debs"/*.deb; do
  dpkg-deb -x "$f" "$dir/root"
  dpkg-deb -W --showformat='${Package} ${Version}\n' "$f" >> "$dir/VERSIONS"
done
rm -rf "$st"
lib=$dir/root/usr/lib/x86_64-linux-gnu
[ -f "$lib/libvulkan_radeon.so" ] && [ -f "$lib/libamdgpu_noop_drm_shim.so" ] && [ -x "$lib/ld-linux-x86-64.so.2" ] &&
  [ -f "$lib/libvulkan_lvp.so" ] && [ -f "$lib/libVkLayer_khronos_validation.so" ]
printf '{ "file_format_version": "1.0.1", "ICD": { "library_path": "%s/libvulkan_radeon.so", "api_version": "1.4.0" } }\n' \
  "$lib" > "$dir/radeon_icd.json"
cat > "$dir/bin/radv-null" <<EOF
#!/bin/sh
# radv-null FAMILY PROGRAM [ARGS...]: PROGRAM on RADV's view of a FAMILY Radeon (no GPU needed).
[ \$# -ge 2 ] || { echo "usage: radv-null FAMILY PROGRAM [ARGS...]" >&2; exit 2; }
family=\$1; shift
export AMDGPU_GPU_ID="\$family" LD_PRELOAD="$lib/libamdgpu_noop_drm_shim.so" VK_DRIVER_FILES="$dir/radeon_icd.json"
unset VK_ICD_FILENAMES VK_ADD_DRIVER_FILES
exec "$lib/ld-linux-x86-64.so.2" --library-path "$lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}" "\$@"
EOF
chmod +x "$dir/bin/radv-null"
# lvp-current PROGRAM [ARGS...]: PROGRAM on forky's lavapipe with forky's loader and validation
# layer (the layer the H200's driver stack ships: it checks rules Debian 12's 1.3.239 does not, and
# Mesa 26's lavapipe compiles differently from CI's Mesa 25; tests/CMakeLists.txt).
printf '{ "file_format_version": "1.0.1", "ICD": { "library_path": "%s/libvulkan_lvp.so", "api_version": "1.4.0" } }\n' \
  "$lib" > "$dir/lvp_icd.json"
mkdir -p "$dir/layers"
sed "s|\"library_path\": \"libVkLayer_khronos_validation.so\"|\"library_path\": \"$lib/libVkLayer_khronos_validation.so\"|" \
  "$dir/root/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json" > "$dir/layers/VkLayer_khronos_validation.json"
cat > "$dir/bin/lvp-current" <<EOF
#!/bin/sh
# lvp-current PROGRAM [ARGS...]: PROGRAM on Debian forky's lavapipe, loader and validation layer.
[ \$# -ge 1 ] || { echo "usage: lvp-current PROGRAM [ARGS...]" >&2; exit 2; }
export VK_DRIVER_FILES="$dir/lvp_icd.json" VK_LAYER_PATH="$dir/layers"
unset VK_ICD_FILENAMES VK_ADD_DRIVER_FILES VK_ADD_LAYER_PATH
exec "$lib/ld-linux-x86-64.so.2" --library-path "$lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}" "\$@"
EOF
chmod +x "$dir/bin/lvp-current"
echo "radv-null, lvp-current: $(grep -E '^(mesa-vulkan-drivers|libvulkan1|mesa-drm-shim|vulkan-validationlayers) ' "$dir/VERSIONS" | paste -sd, | sed 's/,/, /g') in $dir"
