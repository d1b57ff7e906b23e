#!/usr/bin/env bash
# Builds Encore's Debian package: encore_<version>_<arch>.deb in the current directory (or $ENCORE_PACKAGE_OUT).
#
#   scripts/package.sh            installs the build's Debian packages if missing, builds the libraries in
#                                 build-package/ for prefix /usr, stages them, writes the package
#
# The package holds the libraries, the headers, pkg-config and CMake files, docs and samples, and the SYCL compiler:
# encore++ with encore-outliner (Clang 15 LibTooling), so that the installed encore++ builds the same targets as
# the build tree's. It depends on the Debian packages whose headers and libraries Encore's own need, Clang 15's
# among them. Where this machine has a CUDA Toolkit, the CUDA plugin and libencore-cuda are in it too (they load
# the NVIDIA driver's libcuda.so.1, which is not a Debian package and so not a dependency: without it the plugin
# stays unloaded, and ENCORE_TRACE=1 says why); the installed encore++ finds nvcc when it runs
# (ENCORE_NVCC, the toolkit it was built with, PATH, $CUDA_PATH/bin, /usr/local/cuda/bin), so a toolkit installed
# later works as well. The staged tree stays in build-package/stage for tests/consumer/run.sh --stage.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${ENCORE_PACKAGE_BUILD_DIR:-build-package}"
out_dir="${ENCORE_PACKAGE_OUT:-$PWD}"

ENCORE_BUILD_DIR="$build_dir" scripts/setup.sh --prefix=/usr --buildtype=release -Db_ndebug=true \
    -Dtests=false -Dbenchmarks=false -Dcuda=auto -Dopencl=disabled -Dlevel_zero=disabled -Dhip=disabled \
    -Dcompiler=enabled
ninja -C "$build_dir" >/dev/null
stage="$build_dir/stage"
rm -rf "$stage"
DESTDIR="$PWD/$stage" meson install -C "$build_dir" --no-rebuild --quiet

version="$(meson introspect "$build_dir" --projectinfo | python3 -c 'import json,sys; print(json.load(sys.stdin)["version"])')"
arch="$(dpkg --print-architecture)"
# The package's needs: the Debian packages holding the libraries the staged libraries and programs link to (as
# dpkg-shlibdeps would find them; a library no package holds, libcuda.so.1, is left out), the headers Encore's
# headers include (Boost.Graph, nlohmann-json), and Clang's own headers, which the outliner's parses read.
runtime_packages="$(find "$stage" -type f \( -name '*.so*' -o -perm -u+x \) -exec objdump -p {} \; 2>/dev/null | awk '/NEEDED/ {print $2}' | sort -u |
    while read -r soname; do
        path="$(ldconfig -p | awk -v so="$soname" '$1 == so {print $NF; exit}')"
        [ -n "$path" ] || continue
        real="$(readlink -f "$path")"
        # With merged /usr, dpkg knows a library under /lib or /usr/lib, whichever its package shipped.
        { dpkg -S "$path" || dpkg -S "$real" || dpkg -S "${real#/usr}"; } 2>/dev/null | head -1 | cut -d: -f1
    done | sort -u | paste -sd, - | sed 's/,/, /g')"
need() { echo "$1 (>= $(dpkg-query -W -f='${Version}' "$1" | sed 's/-[^-]*$//'))"; }
if find "$stage" -name 'libencore-backend-cuda.so' | grep -q .; then
    cuda_line=" It carries the CUDA backend plugin, which loads the NVIDIA driver's libcuda.so.1 where one is installed."
    cuda_note="with the CUDA plugin"
else
    cuda_line=" It has no CUDA backend plugin: it was built where no CUDA Toolkit was found."
    cuda_note="without the CUDA plugin (no CUDA Toolkit found)"
fi
# The .deb is built from a copy, so that the stage stays a plain install tree (no DEBIAN/) for the consumer tests.
tree="$(mktemp -d)"
trap 'rm -rf "$tree"' EXIT
cp -a "$stage/." "$tree/"
mkdir -p "$tree/DEBIAN"
cat >"$tree/DEBIAN/control" <<CONTROL
Package: encore
Version: $version
Architecture: $arch
Maintainer: Encore developers <encore@localhost>
Section: libdevel
Priority: optional
Depends: $runtime_packages, $(need libboost-graph-dev), $(need nlohmann-json3-dev), $(need libclang-common-15-dev),
 pkg-config, python3, g++
Suggests: pocl-opencl-icd, graphviz, cmake, ccache
Description: command-graph record-and-replay engine with a SYCL 2020 graph front end
 Encore records heterogeneous work (kernels, copies, fills, host tasks) once as a graph and replays it
 many times at a fraction of the launch cost. This package has the engine (libencore, <encore/encore.hpp>),
 the SYCL 2020 / sycl_ext_oneapi_graph front end (libencore_sycl, <sycl/sycl.hpp>), pkg-config files
 (encore, encore-sycl), a CMake package (find_package(Encore): Encore::encore, Encore::sycl) and the
 SYCL compiler encore++ (-fsycl-targets=native, and cuda:sm_NN where a CUDA Toolkit's nvcc is found).
$cuda_line
CONTROL
package="$out_dir/encore_${version}_${arch}.deb"
dpkg-deb --root-owner-group --build "$tree" "$package" >/dev/null
echo "package: $package ($(du -h "$package" | cut -f1)), $cuda_note; staged install in $stage"
