#!/usr/bin/env python3
"""encore++'s rule against silent CPU fallback, both ways: built for a GPU, a program with a kernel that gets no
device code fails to build with a message naming the kernel and the flag; with -fsycl-allow-host-fallback it
builds, with a warning, and runs (on the native backend here).

    host_fallback_test.py <encore++> <input.cpp> <scratch folder> [flags for encore++...]"""
import os
import subprocess
import sys
from pathlib import Path

encore_cxx, source, scratch, *flags = sys.argv[1:]
Path(scratch).mkdir(parents=True, exist_ok=True)
program = Path(scratch) / "host_fallback"
failures = []


def build(extra):
    program.unlink(missing_ok=True)
    return subprocess.run([encore_cxx, "-fsycl-targets=cuda:sm_90,native"] + extra + flags + [source, "-o",
                          str(program)], capture_output=True, text=True)


refused = build([])
if refused.returncode == 0:
    failures.append("the build without -fsycl-allow-host-fallback succeeded")
for fragment in ("error: kernel '", "gets no device code: its reduction's operation",
                 "-fsycl-allow-host-fallback makes this a warning"):
    if fragment not in refused.stderr:
        failures.append(f"the refusal does not say '{fragment}':\n{refused.stderr}")
if program.exists():
    failures.append("the refused build left a program")

allowed = build(["-fsycl-allow-host-fallback"])
if allowed.returncode != 0:
    failures.append(f"the build with -fsycl-allow-host-fallback failed:\n{allowed.stderr}")
elif "warning: kernel '" not in allowed.stderr or "native backend" not in allowed.stderr:
    failures.append(f"the allowed build gave no warning:\n{allowed.stderr}")
else:
    run = subprocess.run([str(program)], env=dict(os.environ, ENCORE_BACKENDS="native"), capture_output=True,
                         text=True)
    if run.returncode != 0:
        failures.append(f"the allowed program failed (status {run.returncode}):\n{run.stdout}{run.stderr}")

for f in failures:
    print("FAIL:", f)
print("ok" if not failures else f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
