#!/usr/bin/env bash
# Builds Encore's Debian package: encore_<version>_<arch>.deb in the current directory (or $ENCORE_PACKAGE_OUT).
#
#   scripts/package.sh            installs the build's Debian packages if missing, builds the libraries in
#                                 build-package/ for prefix /usr, stages them, writes the package
#
# The package holds the libraries, the headers, pkg-config and CMake files, docs and samples; it depends on the
# Debian packages whose headers and libraries Encore's own need. The CUDA plugin is left out (CUDA is not a Debian
# package here; build from source with -Dcuda=enabled for it), and with it the outliner: the packaged encore++
# (Python 3) builds for the native target; GPU targets need a source build with nvcc and clang 15. The staged tree stays in build-package/stage for
# tests/consumer/run.sh --stage.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${ENCORE_PACKAGE_BUILD_DIR:-build-package}"
out_dir="${ENCORE_PACKAGE_OUT:-$PWD}"

ENCORE_BUILD_DIR="$build_dir" scripts/setup.sh --prefix=/usr --buildtype=release -Db_ndebug=true \
    -Dtests=false -Dbenchmarks=false -Dcuda=disabled -Dopencl=disabled -Dlevel_zero=disabled -Dhip=disabled \
    -Dcompiler=disabled
ninja -C "$build_dir" >/dev/null
stage="$build_dir/stage"
rm -rf "$stage"
DESTDIR="$PWD/$stage" meson install -C "$build_dir" --no-rebuild --quiet

version="$(meson introspect "$build_dir" --projectinfo | python3 -c 'import json,sys; print(json.load(sys.stdin)["version"])')"
arch="$(dpkg --print-architecture)"
# The package's needs: the Debian packages holding the libraries the staged ones link to (as dpkg-shlibdeps
# would find them), and the headers Encore's headers include (Boost.Graph, nlohmann-json).
runtime_packages="$(find "$stage" -name '*.so*' -type f -exec objdump -p {} \; | awk '/NEEDED/ {print $2}' | sort -u |
    while read -r soname; do
        path="$(ldconfig -p | awk -v so="$soname" '$1 == so {print $NF; exit}')"
        [ -n "$path" ] || continue
        real="$(readlink -f "$path")"
        # With merged /usr, dpkg knows a library under /lib or /usr/lib, whichever its package shipped.
        { dpkg -S "$path" || dpkg -S "$real" || dpkg -S "${real#/usr}"; } 2>/dev/null | head -1 | cut -d: -f1
    done | sort -u | paste -sd, - | sed 's/,/, /g')"
need() { echo "$1 (>= $(dpkg-query -W -f='${Version}' "$1" | sed 's/-[^-]*$//'))"; }
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
Depends: $runtime_packages, $(need libboost-graph-dev), $(need nlohmann-json3-dev), pkg-config, python3, g++
Suggests: pocl-opencl-icd, graphviz, cmake
Description: command-graph record-and-replay engine with a SYCL 2020 graph front end
 Encore records heterogeneous work (kernels, copies, fills, host tasks) once as a graph and replays it
 many times at a fraction of the launch cost. This package has the engine (libencore, <encore/encore.hpp>),
 the SYCL 2020 / sycl_ext_oneapi_graph front end (libencore_sycl, <sycl/sycl.hpp>), pkg-config files
 (encore, encore-sycl) and a CMake package (find_package(Encore): Encore::encore, Encore::sycl).
CONTROL
package="$out_dir/encore_${version}_${arch}.deb"
dpkg-deb --root-owner-group --build "$tree" "$package" >/dev/null
echo "package: $package ($(du -h "$package" | cut -f1)); staged install in $stage"
