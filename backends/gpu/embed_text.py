#!/usr/bin/env python3
"""Writes a C++ source file defining `extern const char SYMBOL[]` as the text of INPUT (a raw string literal).

Used at build time to embed the fill kernel in the GPU plugins: as PTX for CUDA, as source for hiprtc on HIP.

    embed_text.py INPUT OUTPUT SYMBOL
"""
import sys

source, output, symbol = sys.argv[1:4]
text = open(source).read()
delimiter = 'embed'
assert ')' + delimiter + '"' not in text, 'the text contains the raw string delimiter'
with open(output, 'w') as out:
    out.write(f'extern const char {symbol}[];\n')
    out.write(f'const char {symbol}[] = R"{delimiter}({text}){delimiter}";\n')
