#!/usr/bin/env bash
# Installs what vkconv needs to build and test, and nothing twice.
#
# Debian 12 (bookworm): Mesa 25 from bookworm-backports (lavapipe + RADV's null device),
# the system loader/validation layer/GoogleTest, and Debian 13's glslang, spirv-tools,
# Vulkan headers and volk unpacked into a private prefix ($VKCONV_TOOLCHAIN, default
# build/_toolchain) whose binaries run through Debian 13's own dynamic loader.  Debian 12's
# glslang 12 cannot compile GL_KHR_cooperative_matrix, and its headers predate it.
# Optionally also Debian forky's (testing) glslang + spirv-tools in $VKCONV_TOOLCHAIN/forky, for
# the bf16 cooperative-matrix shaders (GL_EXT_bfloat16, which Debian 13's glslang 15.2 lacks);
# when that fails, setup still succeeds and bf16 stays on its emulated path.
# Newer distributions (Debian 13+, Ubuntu 24.04+, Arch, Fedora): the system packages.
#
# Idempotent: a second run only checks and returns (well under a second).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
prefix=${VKCONV_TOOLCHAIN:-$here/build/_toolchain}
log() { printf '[setup] %s\n' "$*" >&2; }

SUDO=
if [ "$(id -u)" != 0 ]; then
  command -v sudo >/dev/null && SUDO=sudo || { log "not root and no sudo: install packages by hand"; }
fi

. /etc/os-release
id_like="${ID} ${ID_LIKE:-}"

apt_missing() {  # prints the packages of "$@" that are not installed (name or name/suite)
  local p
  for p in "$@"; do
    dpkg-query -W -f='${Status}\n' "${p%%/*}" 2>/dev/null | grep -q 'install ok installed' || echo "$p"
  done
}

# (Not installed: empty.  `|| true`: under pipefail dpkg-query's failure would end the script.)
mesa_major() { { dpkg-query -W -f='${Version}' mesa-vulkan-drivers 2>/dev/null || true; } | sed -E 's/^([0-9]+).*/\1/'; }

setup_bookworm() {
  local base=(build-essential cmake ninja-build pkg-config python3 git libgtest-dev nlohmann-json3-dev libcli11-dev clang-format
              libvulkan1 libvulkan-dev vulkan-validationlayers vulkan-tools)
  local need; need=$(apt_missing "${base[@]}" mesa-vulkan-drivers)
  local mm; mm=$(mesa_major); [ -n "$mm" ] && [ "$mm" -ge 24 ] || need="$need mesa-vulkan-drivers"
  if [ -n "${need// /}" ]; then
    local src=/etc/apt/sources.list.d/vkconv-bookworm-backports.sources
    if ! grep -rqs 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
      log "adding bookworm-backports (Mesa 25: lavapipe with Vulkan 1.4, RADV null device)"
      printf 'Types: deb\nURIs: http://deb.debian.org/debian\nSuites: bookworm-backports\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' | $SUDO tee "$src" >/dev/null
    fi
    log "installing:$need"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${base[@]}" >/dev/null
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends -t bookworm-backports mesa-vulkan-drivers >/dev/null
  fi
  setup_trixie_prefix
  setup_forky_prefix
  setup_forky_mesa
}

# Optional: a current RADV (Debian forky's Mesa + its DRM shim) for the compile lab's RDNA4 and
# current-compiler runs, and forky's lavapipe with its validation layer for a test shard
# (scripts/radv_null_mesa.sh).  Like the forky glslang, never fatal: a
# failure is remembered in $mp/.unavailable; VKCONV_FORKY_MESA=0 skips it.
setup_forky_mesa() {
  local mp=$prefix/mesa-forky
  [ -f "$mp/.complete-v2" ] && return 0  # v2: lavapipe and the validation layer too (lvp-current)
  local skip="the RDNA4 / current-Mesa compile-lab tests and the current-lavapipe shard will not be registered"
  if [ "${VKCONV_FORKY_MESA:-1}" = 0 ]; then log "VKCONV_FORKY_MESA=0: $skip"; return 0; fi
  if [ -f "$mp/.unavailable" ]; then log "forky Mesa unavailable; $skip; rm $mp/.unavailable to retry"; return 0; fi
  log "fetching Debian forky's Mesa, DRM shim and validation layer into $mp (RDNA4 compile lab, current-lavapipe shard)"
  if bash "$here/scripts/radv_null_mesa.sh" "$mp" && "$mp/bin/radv-null" gfx1201 /bin/true && "$mp/bin/lvp-current" /bin/true; then
    touch "$mp/.complete-v2"
  else
    rm -rf "$mp"; mkdir -p "$mp"; echo failed > "$mp/.unavailable"
    log "forky Mesa: fetching or running it failed; $skip"
  fi
}

# Debian 13's shader toolchain + headers in a private prefix.  Its binaries need glibc 2.38+
# and libstdc++ 14, so they run through the prefix's own ld.so with --library-path.
setup_trixie_prefix() {
  local stamp=$prefix/.complete-v1
  [ -f "$stamp" ] && return 0
  log "fetching Debian 13 glslang/spirv-tools/Vulkan headers/volk into $prefix"
  local st=$prefix/apt
  rm -rf "$prefix"; mkdir -p "$st/etc/sources.list.d" "$st/etc/preferences.d" "$st/lists/partial" "$st/cache/archives/partial" "$st/debs" "$prefix/root" "$prefix/bin"
  : > "$st/status"
  echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian trixie main" > "$st/etc/sources.list"
  local o=(-o "Dir::Etc=$st/etc" -o "Dir::State=$st" -o "Dir::State::Lists=$st/lists" -o "Dir::Cache=$st/cache"
           -o "Dir::State::status=$st/status" -o APT::Architecture=amd64 -o APT::Architectures=amd64
           -o APT::Sandbox::User=root)
  apt-get "${o[@]}" update -qq
  (cd "$st/debs" && apt-get "${o[@]}" download -qq glslang-tools spirv-tools libvulkan-dev libvulkan-volk-dev libc6 libstdc++6 libgcc-s1)
  local f; for f in "$st/debs"/*.deb; do dpkg-deb -x "$f" "$prefix/root"; done
  local lib=$prefix/root/usr/lib/x86_64-linux-gnu
  for t in glslangValidator spirv-val spirv-opt spirv-dis; do
    printf '#!/bin/sh\nexec "%s/ld-linux-x86-64.so.2" --library-path "%s" "%s/root/usr/bin/%s" "$@"\n' "$lib" "$lib" "$prefix" "$t" > "$prefix/bin/$t"
    chmod +x "$prefix/bin/$t"
  done
  "$prefix/bin/glslangValidator" --version >/dev/null
  rm -rf "$st/lists" "$st/cache"
  touch "$stamp"
}

# Optional: Debian forky's (testing) glslang-tools + spirv-tools in $prefix/forky, run through
# forky's own ld.so like the trixie prefix.  Only the bf16 cooperative-matrix shaders use it
# (GL_EXT_bfloat16 / SPV_KHR_bfloat16: glslang 15.2 and spirv-val 2025.1 reject them); CMake
# probes it and uses it only where the main compiler cannot.  Testing moves, so nothing here may
# fail setup: a failed attempt is remembered in $fp/.unavailable (re-runs stay instant) and
# only means bf16 keeps its emulated path.  Delete that file to retry; VKCONV_FORKY=0 skips this.
setup_forky_prefix() {
  local fp=$prefix/forky
  [ -f "$fp/.complete-v1" ] && return 0
  local skip="bf16 cooperative-matrix shaders will not be built (bf16 stays emulated)"
  if [ "${VKCONV_FORKY:-1}" = 0 ]; then log "VKCONV_FORKY=0: no forky glslang; $skip"; return 0; fi
  if [ -f "$fp/.unavailable" ]; then
    log "forky glslang unavailable ($(cat "$fp/.unavailable")); $skip; rm $fp/.unavailable to retry"
    return 0
  fi
  log "fetching Debian forky's glslang/spirv-tools into $fp (bf16 cooperative-matrix shaders)"
  local rc=0
  set +e
  (set -euo pipefail; fetch_forky_prefix "$fp")
  rc=$?
  set -e
  if [ "$rc" != 0 ]; then
    local why; why=$(cat "$fp/.step" 2>/dev/null || echo "exit $rc")
    rm -rf "$fp"; mkdir -p "$fp"; echo "$why failed" > "$fp/.unavailable"
    log "forky glslang: $why failed; $skip"
    return 0
  fi
  log "forky toolchain: $(paste -sd, "$fp/VERSIONS" | sed 's/,/, /g')"
  touch "$fp/.complete-v1"
}

fetch_forky_prefix() {  # fetch_forky_prefix DIR (runs in a subshell under set -e; $DIR/.step says where it stopped)
  local fp=$1 st=$1/apt
  rm -rf "$fp"; mkdir -p "$st/etc/sources.list.d" "$st/etc/preferences.d" "$st/lists/partial" "$st/cache/archives/partial" "$st/debs" "$fp/root" "$fp/bin"
  : > "$st/status"
  echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian forky main" > "$st/etc/sources.list"
  local o=(-o "Dir::Etc=$st/etc" -o "Dir::State=$st" -o "Dir::State::Lists=$st/lists" -o "Dir::Cache=$st/cache"
           -o "Dir::State::status=$st/status" -o APT::Architecture=amd64 -o APT::Architectures=amd64
           -o APT::Sandbox::User=root -o Acquire::http::Timeout=30 -o Acquire::Retries=1)
  echo "apt-get update (forky)" > "$fp/.step"
  apt-get "${o[@]}" update -qq --error-on=any
  # glslang is linked statically today; take its glslang/SPIRV-Tools libraries too should that change.
  local pk=(glslang-tools spirv-tools libc6 libstdc++6 libgcc-s1)
  pk+=($(apt-cache "${o[@]}" depends glslang-tools spirv-tools | awk '$1 == "Depends:" {print $2}' |
         grep -Ei '^lib(glslang|spirv)' | sort -u || true))
  echo "downloading ${pk[*]}" > "$fp/.step"
  (cd "$st/debs" && apt-get "${o[@]}" download -qq "${pk[@]}")
  echo "unpacking the forky packages" > "$fp/.step"
  local f; for f in "$st/debs"/*.deb; do
    dpkg-deb -x "$f" "$fp/root"
    dpkg-deb -W --showformat='${Package} ${Version}\n' "$f" >> "$fp/VERSIONS"
  done
  local lib=$fp/root/usr/lib/x86_64-linux-gnu t
  for t in glslangValidator spirv-val spirv-opt spirv-dis; do
    printf '#!/bin/sh\nexec "%s/ld-linux-x86-64.so.2" --library-path "%s" "%s/root/usr/bin/%s" "$@"\n' "$lib" "$lib" "$fp" "$t" > "$fp/bin/$t"
    chmod +x "$fp/bin/$t"
  done
  echo "running forky's glslangValidator/spirv-val" > "$fp/.step"
  "$fp/bin/glslangValidator" --version >/dev/null
  "$fp/bin/spirv-val" --version >/dev/null
  # The same check as CMake's: a bf16 cooperative-matrix shader compiles and validates.
  echo "compiling a bf16 cooperative-matrix shader with forky's glslang" > "$fp/.step"
  printf '%s\n' '#version 460' '#extension GL_KHR_cooperative_matrix : require' '#extension GL_KHR_memory_scope_semantics : require' \
    '#extension GL_EXT_bfloat16 : require' 'layout(local_size_x=32) in; layout(binding=0) buffer B { bfloat16_t d[]; };' \
    'void main(){ coopmat<bfloat16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> a; coopMatLoad(a, d, 0, 16, gl_CooperativeMatrixLayoutRowMajor); coopMatStore(a, d, 0, 16, gl_CooperativeMatrixLayoutRowMajor); }' \
    > "$st/probe.comp"
  "$fp/bin/glslangValidator" -V --target-env vulkan1.2 --quiet "$st/probe.comp" -o "$st/probe.spv" >/dev/null
  "$fp/bin/spirv-val" --target-env vulkan1.2 "$st/probe.spv"
  rm -rf "$st" "$fp/.step"
}

setup_apt_new() {  # Debian 13+, Ubuntu 24.04+
  local pk=(build-essential cmake ninja-build pkg-config python3 git libgtest-dev nlohmann-json3-dev libcli11-dev libvulkan1 libvulkan-dev
            libvulkan-volk-dev vulkan-validationlayers vulkan-tools mesa-vulkan-drivers glslang-tools spirv-tools)
  local need; need=$(apt_missing "${pk[@]}")
  if [ -n "${need// /}" ]; then
    log "installing:" $need
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $need >/dev/null
  fi
}

case " $id_like " in
  *" debian "*|*" ubuntu "*)
    if [ "${ID}" = debian ] && [ "${VERSION_ID:-}" = 12 ]; then setup_bookworm; else setup_apt_new; fi ;;
  *" arch "*)
    pacman -Q glslang spirv-tools vulkan-headers vulkan-icd-loader volk vulkan-swrast vulkan-validation-layers gtest nlohmann-json cli11 cmake ninja >/dev/null 2>&1 ||
      $SUDO pacman -S --needed --noconfirm base-devel cmake ninja python glslang spirv-tools vulkan-headers vulkan-icd-loader volk vulkan-swrast vulkan-validation-layers vulkan-tools gtest nlohmann-json cli11 ;;
  *" fedora "*|*" rhel "*)
    rpm -q glslang spirv-tools vulkan-headers vulkan-loader-devel volk-devel mesa-vulkan-drivers vulkan-validation-layers gtest-devel json-devel cli11-devel cmake ninja-build >/dev/null 2>&1 ||
      $SUDO dnf install -y gcc-c++ cmake ninja-build python3 glslang spirv-tools vulkan-headers vulkan-loader-devel volk-devel mesa-vulkan-drivers vulkan-validation-layers vulkan-tools gtest-devel json-devel cli11-devel ;;
  *) log "unknown distribution '$ID': install a C++20 compiler, CMake, Ninja, glslang >= 14, spirv-tools, Vulkan headers >= 1.3.255, volk, GoogleTest, a Vulkan driver and the validation layer" ;;
esac
