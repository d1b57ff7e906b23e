#!/usr/bin/env bash
# Builds tests/consumer up to five ways against an installed Encore and runs each build:
#   CMake (find_package(Encore), Encore::sycl), meson (dependency('encore-sycl')), plain
#   g++ $(pkg-config --cflags --libs encore-sycl), and the installed encore++: for the native target, and for
#   cuda:sm_90 plus native where the installed encore++ finds nvcc (the program must embed a CUDA fat
#   binary; it runs here on the native backend, and on a GPU machine by hand: ENCORE_CONSUMER_KEEP=DIR keeps it).
#
#   tests/consumer/run.sh                     against the system's Encore (the Debian package, say)
#   tests/consumer/run.sh --stage DIR PREFIX  against `meson install --destdir DIR` of a build for PREFIX
#
# A header or library missing from the install fails a build; a wrong result fails a run. Prints one line
# per build and exits non-zero if any failed.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
stage="" prefix="/usr"
if [ "${1:-}" = "--stage" ]; then stage="$(cd "$2" && pwd)"; prefix="$3"; fi

libdir="$prefix/lib/$(gcc -dumpmachine)"
if [ -n "$stage" ]; then
    export PKG_CONFIG_PATH="$stage$libdir/pkgconfig"
    export PKG_CONFIG_SYSROOT_DIR="$stage"
    export LD_LIBRARY_PATH="$stage$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    cmake_prefix="$stage$prefix"
    where="the install staged in $stage"
else
    cmake_prefix="$prefix"
    where="the system's install"
fi
# The consumer runs on the native backend whatever this machine has (its kernels are host code anyway).
export ONEAPI_DEVICE_SELECTOR="native:*"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failed=0
check() { # name, then the command that builds $work/<name>/consumer
    local name="$1"; shift
    mkdir -p "$work/$name"
    if ! "$@" >"$work/$name.log" 2>&1; then
        echo "consumer ($name): FAILED to build against $where"; tail -20 "$work/$name.log"; failed=1; return
    fi
    if ! "$work/$name/consumer" >>"$work/$name.log" 2>&1; then
        echo "consumer ($name): FAILED to run"; tail -20 "$work/$name.log"; failed=1; return
    fi
    echo "consumer ($name): built against $where and ran: $(tail -1 "$work/$name.log")"
}
check cmake sh -c "cmake -S '$here' -B '$work/cmake-build' -DCMAKE_PREFIX_PATH='$cmake_prefix' -DCMAKE_BUILD_TYPE=Release \
    && cmake --build '$work/cmake-build' && cp '$work/cmake-build/consumer' '$work/cmake/consumer'"
check meson sh -c "meson setup '$work/meson-build' '$here' && ninja -C '$work/meson-build' \
    && cp '$work/meson-build/consumer' '$work/meson/consumer'"
check pkg-config sh -c "g++ -O1 '$here/consumer.cpp' -o '$work/pkg-config/consumer' \$(pkg-config --cflags --libs encore-sycl)"
# encore++ finds headers and libraries relative to itself, so the staged copy works where it lies.
encore_cxx="$stage$prefix/bin/encore++"
check encore++ sh -c "'$encore_cxx' -O1 '$here/consumer.cpp' -o '$work/encore++/consumer'"
# encore++ --version names the nvcc it found ("cuda:sm_NN (nvcc: PATH)"), as a build would find it.
nvcc="$("$encore_cxx" --version | sed -n 's/.*(nvcc: \(.*\)))$/\1/p')"
if [ -z "$nvcc" ]; then
    echo "consumer (encore++ cuda:sm_90): SKIPPED: the installed encore++ finds no nvcc here ($("$encore_cxx" --version))"
else
    check "encore++-cuda" sh -c "'$encore_cxx' -fsycl-targets=cuda:sm_90,native -O1 '$here/consumer.cpp' \
        -o '$work/encore++-cuda/consumer' && python3 '$here/has_fatbin.py' '$work/encore++-cuda/consumer'"
    if [ -n "${ENCORE_CONSUMER_KEEP:-}" ] && [ -f "$work/encore++-cuda/consumer" ]; then
        mkdir -p "$ENCORE_CONSUMER_KEEP" && cp "$work/encore++-cuda/consumer" "$ENCORE_CONSUMER_KEEP/consumer_cuda"
    fi
fi
# An installed libencore searches its own plugin folder, never the build tree it was built in (the build tree's
# programs do: runtime/backend_registry.cpp).
if [ -x "$work/pkg-config/consumer" ]; then
    searched="$(ENCORE_TRACE=1 ENCORE_BACKEND_PATH= "$work/pkg-config/consumer" 2>&1 | grep -m1 'plugins searched in:')"
    case "$searched" in
        # ${libdir#/usr}: with merged /usr the loader may name /lib/<triplet> for /usr/lib/<triplet>.
        *"$stage"*"${libdir#/usr}/encore"*) case "$searched" in
            */backends/*) echo "consumer (plugin folders): FAILED: the installed libencore searches a build tree: $searched"
                          failed=1 ;;
            *) echo "consumer (plugin folders): the installed libencore searches its own: ${searched#*searched in: }" ;;
            esac ;;
        *) echo "consumer (plugin folders): FAILED: not the install's plugin folder: $searched"; failed=1 ;;
    esac
fi
# The installed encore-ls runs against the installed libencore and finds the native device (the selector above).
ls_tool="$stage$prefix/bin/encore-ls"
if ls_json="$("$ls_tool" --json 2>&1)" && printf '%s' "$ls_json" | python3 -c '
import json, sys
found = json.load(sys.stdin)
sys.exit(0 if found["default_device"]["id"] == "native:0" and found["usable"] else 1)'; then
    echo "consumer (encore-ls): the installed encore-ls lists the native device as the default"
else
    echo "consumer (encore-ls): FAILED: $ls_tool --json: $(printf '%s' "$ls_json" | tail -5)"; failed=1
fi
exit $failed
