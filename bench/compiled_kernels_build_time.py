#!/usr/bin/env python3
"""Build time of bench/compiled_kernels: encore++ compiling the SYCL kernels (outliner, nvcc for the device code,
the host compiler, the offload wrapper) against nvcc compiling the same kernels written in CUDA
(compiled_kernels_cuda.cu), each to an object for sm_90, median of 3 runs; and g++ alone on the SYCL file (the
native target) for scale. Run where encore++ is (the GPU machine has no clang):

    python3 bench/compiled_kernels_build_time.py build/compiler/encore++ /usr/local/cuda/bin/nvcc > times.json
    compiled_kernels --build-times times.json

The SYCL file also holds the benchmark's harness; the CUDA file holds only the kernels and their timing loops."""
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def timed(command):
    best = []
    for _ in range(3):
        start = time.monotonic()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        best.append(time.monotonic() - start)
    return statistics.median(best)


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    encore_cxx, nvcc = argv[1], argv[2]
    root = HERE.parent
    with tempfile.TemporaryDirectory() as out:
        sycl = [encore_cxx, "-fsycl-targets=cuda:sm_90,native", "-O2", "-I", str(root / "include"), "-c",
                str(HERE / "compiled_kernels.cpp"), "-o", f"{out}/sycl.o"]
        native = [encore_cxx, "-fsycl-targets=native", "-O2", "-I", str(root / "include"), "-c",
                  str(HERE / "compiled_kernels.cpp"), "-o", f"{out}/native.o"]
        cuda = [nvcc, "-O2", "-std=c++17", "-gencode=arch=compute_90,code=[sm_90,compute_90]", "-c",
                str(HERE / "compiled_kernels_cuda.cu"), "-o", f"{out}/cuda.o"]
        result = {"encore++_cuda_sm_90_s": round(timed(sycl), 2), "nvcc_s": round(timed(cuda), 2),
                  "host_compiler_native_only_s": round(timed(native), 2)}
    result["encore++_over_nvcc"] = round(result["encore++_cuda_sm_90_s"] / result["nvcc_s"], 2)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
