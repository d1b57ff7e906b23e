#!/usr/bin/env python3
"""`ccache encore++`: the first compile of a SYCL source is a cache miss, the second (another object name) a hit
that gives a working object: the program linked from it runs and prints what the kernels computed.

    ccache_test.py <ccache> <encore++> <source.cpp> <scratch folder> [flags for encore++...]"""
import os
import shutil
import subprocess
import sys
from pathlib import Path

ccache, encore_cxx, source, scratch, *flags = sys.argv[1:]
encore_cxx = str(Path(encore_cxx).resolve())  # meson gives it relative to the build folder
scratch = Path(scratch)
shutil.rmtree(scratch, ignore_errors=True)
scratch.mkdir(parents=True)
env = dict(os.environ, CCACHE_DIR=str(scratch / "cache"), CCACHE_NOHASHDIR="1", ENCORE_BACKENDS="native")
failures = []


def run(command, what):
    result = subprocess.run([str(c) for c in command], capture_output=True, text=True, env=env)
    if result.returncode != 0:
        failures.append(f"{what} failed (status {result.returncode}):\n{result.stdout}{result.stderr}")
    return result


def stat(name):
    """A counter of `ccache --print-stats` (tab-separated name and value)."""
    for line in run([ccache, "--print-stats"], "ccache --print-stats").stdout.splitlines():
        key, _, value = line.partition("\t")
        if key == name:
            return int(value)
    return 0


run([ccache, "--zero-stats"], "ccache --zero-stats")
for name in ("first.o", "second.o"):
    run([ccache, encore_cxx] + flags + ["-O1", "-c", source, "-o", scratch / name], f"ccache encore++ -c -o {name}")
hits = stat("direct_cache_hit") + stat("preprocessed_cache_hit")
misses = stat("cache_miss")
if misses != 1 or hits != 1:
    failures.append(f"expected one miss and one hit, ccache counted {misses} and {hits}")
if not failures:
    run([encore_cxx] + flags + [scratch / "second.o", "-o", scratch / "program"], "linking the cached object")
    result = run([scratch / "program"], "the program from the cached object")
    if "0 wrong" not in result.stdout:
        failures.append(f"the program's output: {result.stdout}{result.stderr}")
for f in failures:
    print("FAIL:", f)
print("ok" if not failures else f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
