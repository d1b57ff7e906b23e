#!/usr/bin/env bash
# Sets up Encore on Debian 12: installs the Debian packages the build needs (only those missing; quiet;
# idempotent) and configures the meson build directory.
#
#   scripts/setup.sh [meson options...]      e.g. scripts/setup.sh -Dcuda=disabled
#
# Environment: ENCORE_BUILD_DIR (default: build). The HIP SDK (libamdhip64-dev: the HIP plugin is built and its
# tests run, skipping without an AMD GPU) and Level Zero's (libze-dev, libze1: the loader and its validation layer;
# the Level Zero tests run behind them over a CPU test driver) are installed too, and clang-15 with llvm-spirv-15
# (the OpenCL tests' SPIR-V module), and OpenMPI (the distributed Jacobi sample, run on 1-3 ranks).
# CUDA comes from /usr/local/cuda and is not installed.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential pkg-config meson ninja-build cmake ccache
          libboost-graph-dev libboost-context-dev libtbb-dev nlohmann-json3-dev doctest-dev graphviz
          ocl-icd-opencl-dev opencl-headers pocl-opencl-icd libamdhip64-dev libze-dev libze1
          libclang-15-dev libclang-cpp15-dev llvm-15-dev clang-15 llvm-spirv-15 libopenmpi-dev openmpi-bin)

missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]})); then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    echo "setup: installing ${missing[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

build_dir="${ENCORE_BUILD_DIR:-build}"
if [ -f "$build_dir/build.ninja" ]; then
    # --reconfigure, not `meson configure`: it also knows options added to meson_options.txt since the folder
    # was set up.
    if (($#)); then meson setup --reconfigure "$build_dir" "$@" >/dev/null; fi
else
    # nvcc goes through scripts/nvcc-with-depfile, so that ninja learns what each .cu object includes (see there);
    # machine files of this meson take no relative paths, so the build folder gets one naming it.
    mkdir -p "$build_dir"
    printf "[binaries]\ncuda = '%s'\n" "$PWD/scripts/nvcc-with-depfile" > "$build_dir/encore-native.ini"
    meson setup "$build_dir" --native-file "$build_dir/encore-native.ini" "$@" >/dev/null
fi
echo "setup: configured $build_dir"
