#!/usr/bin/env python3
"""Writes synthetic weights for Edax 4.6 (random values, speed only) to the file given.

A measuring aid for the midgame nodes-per-second comparison in docs/strength.md; nothing in
Wedge uses it. Edax is built outside the repository from its public source
(github:abulmo/edax-reversi, 14f048c):

    cd EDAX/src && mkdir -p ../bin && make build ARCH=x86-64-v3 CC=gcc OS=linux
    python3 scripts/edax-synthetic-weights.py EDAX/data/eval.dat
    cd EDAX && taskset -c 0 ./bin/lEdax-x86-64-v3 -eval-file data/eval.dat \
        -solve FILE.obf -l 13 -n 1 -h 22 -book-usage off

The file: Edax's header (the words EDAX and EVAL, version 4, release 6, build 0, date 0.0),
then 61 plies of 114,364 little-endian 16-bit weights, uniform in -200..=200 from Python's
generator seeded with 20240601. The same seed gives the same bytes, hence the same trees:
107,591,982 nodes on the ten play positions at level 13, 8,578,182 on the four openings at
level 14.
"""
import array
import os
import random
import struct
import sys

PLIES = 61
WEIGHTS_PER_PLY = 114_364
SEED = 20240601


def main() -> int:
    if len(sys.argv) != 2:
        print(f"usage: {sys.argv[0]} OUT_FILE", file=sys.stderr)
        return 2
    random.seed(SEED)
    target = sys.argv[1]
    temp = f"{target}.tmp{os.getpid()}"
    try:
        # Written beside the target and renamed over it once complete and synced.
        with open(temp, "wb") as out:
            out.write(struct.pack("<IIIIId", 0x45444158, 0x4556414C, 4, 6, 0, 0.0))
            for _ in range(PLIES):
                values = (random.randint(-200, 200) for _ in range(WEIGHTS_PER_PLY))
                ply = array.array("h", values)
                if sys.byteorder != "little":
                    ply.byteswap()
                out.write(ply.tobytes())
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, target)
    except OSError as e:
        if os.path.exists(temp):
            os.remove(temp)
        print(f"{target}: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
