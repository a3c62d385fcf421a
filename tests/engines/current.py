#!/usr/bin/env python3
"""A test engine that knows no rules: ``feature legalmoves`` and ``feature
currentposition``, every game named on its command line; it writes each ``position`` line
it gets to the file named first, and answers each ``go`` with a listed move drawn by
``random.Random(7)``."""

import random
import sys

log = open(sys.argv[1], "a", encoding="utf-8")  # noqa: SIM115 (open for the whole run)
games = sys.argv[2:]
rng = random.Random(7)
for line in sys.stdin:
    line = line.rstrip("\n")
    if line.startswith("sneferu "):
        print("id name current")
        print("feature legalmoves")
        print("feature currentposition")
        print("feature games " + " ".join(games))
        print("sneferuok", flush=True)
    elif line == "isready":
        print("readyok", flush=True)
    elif line.startswith("position ") or line.startswith("gameover"):
        log.write(line + "\n")
        log.flush()
    elif line.startswith("go "):
        moves = line.split(" legalmoves ", 1)[1].split(" ; ")
        print("move " + rng.choice(moves), flush=True)
    elif line == "quit":
        break
