#!/usr/bin/env python3
"""A CMake project (tests/compiler/cmake_project/) configured with encore++ as CMAKE_CXX_COMPILER and built with
ninja: CMake's compiler checks pass, a shared library, a static library and the program build and run, the
dependency files name the project's headers and none of encore++'s generated files (a second build has nothing to
do), and touching a header rebuilds exactly the objects that include it.

    cmake_project_test.py <encore++> <project folder> <scratch folder> [flags for CMAKE_CXX_FLAGS...]"""
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

encore_cxx, project, scratch, *flags = sys.argv[1:]
encore_cxx = str(Path(encore_cxx).resolve())  # meson gives it relative to the build folder
scratch = Path(scratch)
shutil.rmtree(scratch, ignore_errors=True)
source = scratch / "source"
shutil.copytree(project, source)  # a copy: the test touches its headers
build = scratch / "build"
failures = []


def run(command, what, env=None):
    result = subprocess.run([str(c) for c in command], capture_output=True, text=True, env=env)
    if result.returncode != 0:
        failures.append(f"{what} failed (status {result.returncode}):\n{result.stdout}{result.stderr}")
    return result


def finish():
    for f in failures:
        print("FAIL:", f)
    print("ok" if not failures else f"{len(failures)} failure(s)")
    sys.exit(1 if failures else 0)


configure = run(["cmake", "-S", source, "-B", build, "-G", "Ninja", f"-DCMAKE_CXX_COMPILER={encore_cxx}",
                 "-DCMAKE_CXX_FLAGS=" + " ".join(flags)], "configuring with encore++ as the compiler")
if failures:
    finish()
if run(["ninja", "-C", build], "the first build").returncode != 0:
    finish()
native = dict(os.environ, ENCORE_BACKENDS="native")
app = run([build / "app"], "the program", env=native)
if "0 wrong" not in app.stdout:
    failures.append(f"the program's output: {app.stdout}")

again = run(["ninja", "-C", build, "-n"], "a second build's plan")
if "no work to do" not in again.stdout:
    failures.append(f"a second build has work to do (a dependency that does not exist?):\n{again.stdout}")
deps = run(["ninja", "-C", build, "-t", "deps"], "the recorded dependencies").stdout
if "include/arithmetic.hpp" not in deps:
    failures.append("the dependencies do not name the project's header include/arithmetic.hpp")
if "encore++-" in deps or ".integration.hpp" in deps:
    failures.append("the dependencies name encore++'s generated files")

time.sleep(1.1)  # file systems with coarse timestamps
(source / "include" / "arithmetic.hpp").touch()
plan = run(["ninja", "-C", build, "-n"], "the plan after touching a header").stdout
compiles = [line for line in plan.splitlines() if "Building CXX object" in line]
if len(compiles) != 3:
    failures.append(f"touching include/arithmetic.hpp should rebuild the three objects that include it:\n{plan}")
if run(["ninja", "-C", build], "the rebuild").returncode == 0:
    app = run([build / "app"], "the rebuilt program", env=native)
    if "0 wrong" not in app.stdout:
        failures.append(f"the rebuilt program's output: {app.stdout}")
finish()
