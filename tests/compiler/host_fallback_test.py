#!/usr/bin/env python3
"""encore++'s rule against silent CPU fallback, both ways: built for a device target, a program with kernels that get
no device code (a reduction with the program's own operation, a kernel that throws, a lambda capturing a parameter
pack) fails to build (the kernel that throws breaks a device rule: an error); with -fsycl-allow-host-fallback it
builds, with a warning naming each kernel and its reason, and runs (on the native backend here).

    host_fallback_test.py <encore++> <input.cpp> <scratch folder> <target> [flags for encore++...]
(<target>: cuda:sm_90 or spir64, built together with native)"""
import os
import subprocess
import sys
from pathlib import Path

encore_cxx, source, scratch, target, *flags = sys.argv[1:]
Path(scratch).mkdir(parents=True, exist_ok=True)
program = Path(scratch) / "host_fallback"
failures = []


def build(extra):
    program.unlink(missing_ok=True)
    return subprocess.run([encore_cxx, f"-fsycl-targets={target},native"] + extra + flags + [source, "-o",
                          str(program)], capture_output=True, text=True)


refused = build([])
if refused.returncode == 0:
    failures.append("the build without -fsycl-allow-host-fallback succeeded")
# Without the flag the kernel that throws is an error of the device rules, reported before anything else.
for fragment in ("error: kernel '", "cannot throw exceptions in device code"):
    if fragment not in refused.stderr:
        failures.append(f"the refusal does not say '{fragment}':\n{refused.stderr}")
if program.exists():
    failures.append("the refused build left a program")

allowed = build(["-fsycl-allow-host-fallback"])
if allowed.returncode != 0:
    failures.append(f"the build with -fsycl-allow-host-fallback failed:\n{allowed.stderr}")
elif (allowed.stderr.count("warning: kernel '") != 3 or "native backend" not in allowed.stderr or
      any(reason not in allowed.stderr for reason in (
          "gets no device code: its reduction's operation", "gets no device code: cannot throw exceptions",
          "gets no device code: it captures the parameter pack 'v'"))):
    failures.append(f"the allowed build did not warn once for each kernel, with its reason:\n{allowed.stderr}")
else:
    run = subprocess.run([str(program)], env=dict(os.environ, ENCORE_BACKENDS="native"), capture_output=True,
                         text=True)
    if run.returncode != 0:
        failures.append(f"the allowed program failed (status {run.returncode}):\n{run.stdout}{run.stderr}")

for f in failures:
    print("FAIL:", f)
print("ok" if not failures else f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
