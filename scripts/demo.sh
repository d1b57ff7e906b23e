#!/usr/bin/env bash
# Sets everything up, builds the main demo and runs it on the native backend. The demo writes encore-demo.dot
# (and encore-demo.svg when Graphviz is installed) into the build directory.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${ENCORE_BUILD_DIR:-build}"
scripts/setup.sh "$@"
ninja -C "$build_dir" samples/encore_demo >/dev/null
"$build_dir/samples/encore_demo" --out "$build_dir/encore-demo"
