#!/usr/bin/env bash
# Sets everything up, builds the main demo and runs it on the native backend. The demo writes encore-demo.dot
# (and encore-demo.svg when Graphviz is installed) into the build directory.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${ENCORE_BUILD_DIR:-build}"
scripts/setup.sh "$@"
ninja -C "$build_dir" samples/encore_demo >/dev/null
# The demo is the native backend's: show only its device, also on a machine with a GPU and its plugin (the demo's
# kernels are host code, so the default device would be native anyway; this also skips loading other plugins).
export ONEAPI_DEVICE_SELECTOR="${ONEAPI_DEVICE_SELECTOR:-native:*}"
"$build_dir/samples/encore_demo" --out "$build_dir/encore-demo"
