#!/usr/bin/env bash
# Sets everything up, builds everything and runs the whole test suite.
#
#   scripts/test.sh              the normal build (build/)
#   scripts/test.sh --sanitize   AddressSanitizer + UndefinedBehaviorSanitizer build (build-asan/)
#   scripts/test.sh --tsan       ThreadSanitizer build (build-tsan/)
set -euo pipefail
cd "$(dirname "$0")/.."

build_dir="${ENCORE_BUILD_DIR:-build}"
options=()
case "${1:-}" in
    --sanitize) build_dir=build-asan; options=(-Db_sanitize=address,undefined -Db_lundef=false -Dbenchmarks=false) ;;
    --tsan) build_dir=build-tsan; options=(-Db_sanitize=thread -Db_lundef=false -Dbenchmarks=false) ;;
    "") ;;
    *) echo "usage: $0 [--sanitize | --tsan]" >&2; exit 2 ;;
esac
export ENCORE_BUILD_DIR="$build_dir"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export TSAN_OPTIONS="halt_on_error=1 ${TSAN_OPTIONS:-}"
[ -f tests/tsan.supp ] && export TSAN_OPTIONS="$TSAN_OPTIONS suppressions=$PWD/tests/tsan.supp"

scripts/setup.sh "${options[@]}"
ninja -C "$build_dir"
status=0
meson test -C "$build_dir" --print-errorlogs || status=$?

# One closing line a person (and CI) can read: counts from meson's own log.
python3 - "$build_dir/meson-logs/testlog.json" <<'PY' || true
import json, sys
results = [json.loads(line)["result"] for line in open(sys.argv[1]) if line.strip()]
passed = sum(r in ("OK", "EXPECTEDFAIL") for r in results)
skipped = sum(r == "SKIP" for r in results)
print(f"{passed} passed, {len(results) - passed - skipped} failed, {skipped} skipped")
PY
exit $status
