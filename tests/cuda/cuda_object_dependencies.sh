#!/bin/sh
# Whether ninja knows which headers the CUDA test objects include: without that a change to an Encore header
# leaves them compiled against the old layout of its types (scripts/nvcc-with-depfile says why meson 1.0 does not
# ask nvcc for the list). Arguments: the build folder, then objects (relative to it) to check.
build=$1
shift
if ! grep -q "nvcc-with-depfile" "$build/build.ninja"; then
    echo "skipped: this build folder was not configured by scripts/setup.sh; its nvcc writes no dependency files"
    exit 77
fi
status=0
for object in "$@"; do
    listing=$(ninja -C "$build" -t deps "$object")
    deps=$(echo "$listing" | head -n 1)
    count=$(echo "$deps" | sed -n 's/.*#deps \([0-9]*\).*/\1/p')
    case "$deps" in
    *VALID*) ;;
    *) count=0 ;;
    esac
    if [ "${count:-0}" -lt 1 ]; then
        echo "FAIL: ninja knows no header of $object: $deps"
        status=1
    elif ! echo "$listing" | grep -q "include/encore/"; then
        echo "FAIL: $object: no Encore header (include/encore/) among its $count dependencies"
        status=1
    else
        echo "ok: $object: $count dependencies"
    fi
done
exit $status
