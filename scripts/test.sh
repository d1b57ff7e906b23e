#!/usr/bin/env bash
# Sets everything up, builds everything and runs the whole test suite.
#
#   scripts/test.sh              the normal build (build/)
#   scripts/test.sh --sanitize   AddressSanitizer + UndefinedBehaviorSanitizer build (build-asan/)
#   scripts/test.sh --tsan       ThreadSanitizer build (build-tsan/)
#
# The normal run also checks the install: scripts/package.sh builds the Debian package (build-package/), the
# consumer project (tests/consumer/) is built three ways against the staged install and run, and, as root (or
# with sudo), the package is installed with dpkg, the consumer built against it, and the package removed.
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

# Installing: each check below is one more test in the closing line.
extra_passed=0 extra_failed=0
count() { if "$@"; then extra_passed=$((extra_passed + 1)); else extra_failed=$((extra_failed + 1)); status=1; fi; }
installed_cleanly() { # after dpkg -r: none of the package's files is left
    local left
    left="$(ls /usr/include/encore /usr/include/sycl/sycl.hpp /usr/lib/*/libencore* /usr/lib/*/pkgconfig/encore*.pc \
        /usr/lib/*/cmake/Encore 2>/dev/null)"
    [ -z "$left" ] || { echo "package: files left after dpkg -r: $left"; return 1; }
    echo "package: removed cleanly"
}
if [ -z "${options[*]:-}" ]; then
    if ENCORE_PACKAGE_OUT="$PWD/build-package" scripts/package.sh; then
        extra_passed=$((extra_passed + 1))
        count tests/consumer/run.sh --stage build-package/stage /usr
        sudo=""
        [ "$(id -u)" -eq 0 ] || sudo="sudo -n"
        if $sudo true 2>/dev/null; then
            deb="$(ls build-package/encore_*.deb)"
            if $sudo dpkg -i "$deb" >/dev/null; then
                extra_passed=$((extra_passed + 1))
                count tests/consumer/run.sh
                count $sudo dpkg -r encore >/dev/null
                count installed_cleanly
            else
                echo "package: dpkg -i $deb failed"; extra_failed=$((extra_failed + 1)); status=1
            fi
        else
            echo "package: SKIPPED installing the .deb: dpkg -i needs root or password-less sudo"
        fi
    else
        echo "package: scripts/package.sh FAILED"; extra_failed=$((extra_failed + 1)); status=1
    fi
fi

# One closing line a person (and CI) can read: counts from meson's own log.
python3 - "$build_dir/meson-logs/testlog.json" "$extra_passed" "$extra_failed" <<'PY' || true
import json, sys
results = [json.loads(line)["result"] for line in open(sys.argv[1]) if line.strip()]
passed = sum(r in ("OK", "EXPECTEDFAIL") for r in results) + int(sys.argv[2])
skipped = sum(r == "SKIP" for r in results)
failed = len(results) - (passed - int(sys.argv[2])) - skipped + int(sys.argv[3])
print(f"{passed} passed, {failed} failed, {skipped} skipped")
PY
exit $status
