#!/usr/bin/env bash
# Sets everything up, builds everything and runs the whole test suite.
#
#   scripts/test.sh                  the normal build (build/), warnings are errors (-Dwerror=true)
#   scripts/test.sh --sanitize       AddressSanitizer + UndefinedBehaviorSanitizer build of everything (build-asan/)
#   scripts/test.sh --tsan           ThreadSanitizer build of everything (build-tsan/)
#   scripts/test.sh --ci-sanitizers  what CI runs after the normal run, sized for its time: ASan+UBSan over the
#                                    engine, runtime and SYCL suites (fuzz and soak among them), TSan over the
#                                    concurrent ones (build-ci-asan/, build-ci-tsan/; native backend only, no
#                                    compiler or benchmarks, -O1; only those tests' programs are built)
#
# The normal run also checks the install: scripts/package.sh builds the Debian package (build-package/), the
# consumer project (tests/consumer/) is built five ways against the staged install and run, and, as root (or
# with sudo), the package is installed with dpkg, the consumer built against it, and the package removed.
set -euo pipefail
cd "$(dirname "$0")/.."

build_dir="${ENCORE_BUILD_DIR:-build}"
options=()
normal=1
case "${1:-}" in
    --sanitize) build_dir=build-asan; normal=0; options=(-Db_sanitize=address,undefined -Db_lundef=false -Dbenchmarks=false) ;;
    --tsan) build_dir=build-tsan; normal=0; options=(-Db_sanitize=thread -Db_lundef=false -Dbenchmarks=false) ;;
    --ci-sanitizers) normal=0 ;;
    "") options=(-Dwerror=true) ;;
    *) echo "usage: $0 [--sanitize | --tsan | --ci-sanitizers]" >&2; exit 2 ;;
esac
export ENCORE_BUILD_DIR="$build_dir"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export TSAN_OPTIONS="halt_on_error=1 ${TSAN_OPTIONS:-}"
[ -f tests/tsan.supp ] && export TSAN_OPTIONS="$TSAN_OPTIONS suppressions=$PWD/tests/tsan.supp"

if [ "${1:-}" = "--ci-sanitizers" ]; then
    # The tests each sanitizer runs, by meson test name: the engine (suite "encore"), runtime and SYCL suites
    # under ASan+UBSan; under TSan the suites whose point is threads (queues, events, launches, the submission
    # thread, host tasks, the fuzzer's concurrent calls, the soak).
    asan_suites="encore encore:runtime encore:sycl"
    tsan_tests="queue queue_launch_starter event event_launch_starter executable_graph executable_graph_launch_starter
                update submission_thread async_error cache sycl_queue sycl_event sycl_graph sycl_graph_recording
                plain_host_task plain_pipeline fuzz_api concurrency_soak multi_device sycl_graph_multi_device
                profile profile_parallel"
    sanitizer_options=(-Doptimization=1 -Db_lundef=false -Dbenchmarks=false
                       -Dcompiler=disabled -Dcuda=disabled -Dhip=disabled -Dopencl=disabled -Dlevel_zero=disabled)
    status=0
    run_sanitized() { # build dir, sanitizer, then how to pick tests: --suites "..." or --tests "..."
        local dir="$1" sanitizer="$2" how="$3" which="$4" names targets started
        started=$SECONDS
        ENCORE_BUILD_DIR="$dir" scripts/setup.sh -Db_sanitize="$sanitizer" "${sanitizer_options[@]}"
        names="$(meson introspect "$dir" --tests | python3 -c '
import json, sys
how, which = sys.argv[1], sys.argv[2].split()
tests = json.load(sys.stdin)
missing = set(which) - {s for t in tests for s in (t["suite"] if how == "--suites" else [t["name"]])}
if missing:  # a renamed test must not leave the sanitizers silently
    sys.exit("scripts/test.sh: no such test or suite in " + sys.argv[3] + ": " + " ".join(sorted(missing)))
for t in tests:
    if (how == "--suites" and set(t["suite"]) & set(which)) or (how == "--tests" and t["name"] in which):
        print(t["name"])' "$how" "$which" "$dir")"
        # Only what those tests need (meson test would build everything): the targets they depend on.
        targets="$(meson introspect "$dir" --tests --targets | python3 -c '
import json, os, sys
names, root, info = set(sys.argv[1].split()), os.path.realpath(sys.argv[2]), json.load(sys.stdin)
files = {t["id"]: t["filename"] for t in info["targets"]}
for t in info["tests"]:
    if t["name"] in names:
        for target in t["depends"]:
            for path in files.get(target, []):
                print(os.path.relpath(path, root))' "$names" "$dir" | sort -u)"
        ninja -C "$dir" $targets
        # shellcheck disable=SC2086 # test names are words
        meson test -C "$dir" --no-rebuild --print-errorlogs $names || status=1
        echo "sanitizers ($sanitizer): $(echo $names | wc -w) tests in $((SECONDS - started)) s"
    }
    run_sanitized build-ci-asan address,undefined --suites "$asan_suites"
    run_sanitized build-ci-tsan thread --tests "$tsan_tests"
    exit $status
fi

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
if ((normal)); then
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
