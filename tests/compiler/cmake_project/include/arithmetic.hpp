// The device functions the libraries' and the program's kernels share (plain functions: no annotation).
#pragma once

inline int twice(int x) { return 2 * x; }
inline int shifted(int x, int by) { return x + by; }
