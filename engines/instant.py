#!/usr/bin/env python3
"""instant: engines/instant.c in Python, for a machine without a C compiler.

Declares ``feature legalmoves`` (and plays every game that lists its moves: ``feature
games sneferu imhotep akropolis``) and answers every ``go`` at once with one of the listed
moves, chosen at random (option Seed makes it repeatable). It imports nothing of sneferu:
SPEC.md section 6 is all it needs.
"""

import random
import sys

SEP = " ; "


def main() -> None:
    rng = random.Random(0)
    seed = 0
    out = sys.stdout
    for line in sys.stdin:
        line = line.rstrip("\r\n")
        if line.startswith("go "):
            _, _, listed = line.partition(" legalmoves ")
            out.write(f"move {rng.choice(listed.split(SEP)) if listed else 'end'}\n")
        elif line == "isready":
            out.write("readyok\n")
        elif line.startswith("sneferu "):
            out.write("id name instant\nid author the sneferu tests\n"
                      "option name Seed type spin default 0 min 0 max 2147483647\n"
                      "feature legalmoves\nfeature games sneferu imhotep silver-gold akropolis\n"
                      "sneferuok\n")
        elif line.startswith("setoption name Seed value "):
            seed = int(line.split()[-1])
            continue
        elif line.startswith("newgame "):
            rng = random.Random(seed)
            continue
        elif line == "quit":
            break
        else:
            continue
        out.flush()


if __name__ == "__main__":
    main()
