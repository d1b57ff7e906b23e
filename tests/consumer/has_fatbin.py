#!/usr/bin/env python3
"""Exits 0 when the program named embeds a CUDA fat binary (its header: magic 0xBA55ED50, version 1, header size
16, little-endian); says what it found either way. The check a GPU build of the consumer passes on a machine
without cuobjdump or a GPU; a native-only build has none."""
import re
import struct
import sys

data = open(sys.argv[1], "rb").read()
found = []
for match in re.finditer(re.escape(struct.pack("<IHH", 0xBA55ED50, 1, 0x10)), data):
    # The fat binary's header: magic, version, header size (16), then the size of what follows.
    (body,) = struct.unpack_from("<Q", data, match.start() + 8)
    found.append(body)
if not found:
    print(f"{sys.argv[1]}: no CUDA fat binary embedded")
    sys.exit(1)
print(f"{sys.argv[1]}: {len(found)} CUDA fat binary(ies), {sum(found)} bytes")
