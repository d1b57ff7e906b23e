#!/usr/bin/env bash
# run_validated.sh PROGRAM [ARGS...]: runs a Level Zero test behind the real loader with its validation layer on
# (parameter validation and handle lifetime tracking) and fails when the program fails or when the loader or the
# validation layer wrote anything to stderr. The program's own stderr is shown either way.
set -uo pipefail
export ZE_ENABLE_VALIDATION_LAYER=1 ZE_ENABLE_PARAMETER_VALIDATION=1 ZE_ENABLE_HANDLE_LIFETIME=1
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$@" 2> >(tee "$log" >&2)
status=$?
wait
if [ "$status" -ne 0 ]; then exit "$status"; fi
if grep -E -i -n 'validation|ze_loader|level zero loader|handle lifetime' "$log" >/dev/null; then
    echo "run_validated.sh: the Level Zero loader or validation layer reported a problem:" >&2
    grep -E -i -n 'validation|ze_loader|level zero loader|handle lifetime' "$log" >&2
    exit 1
fi
exit 0
