"""An engine that answers at once: it declares ``feature legalmoves`` and plays a listed
move drawn from its ``Seed`` (so a seeded game repeats). No rules, no imports of sneferu:
the arbiter's and the tournament's own costs are what a run of it measures.

``instant.py MS`` waits MS milliseconds before each move (the same moves), so that a test
can catch a run of it still going."""

import random
import sys
import time

DELAY = int(sys.argv[1]) / 1000 if len(sys.argv) > 1 else 0.0


def main() -> None:
    rng = random.Random(0)
    out = sys.stdout
    for line in sys.stdin:
        words = line.split(None, 1) or [""]
        if words[0] == "go":
            moves = line.split(" legalmoves ", 1)[1].rstrip("\n").split(" ; ")
            if DELAY:
                time.sleep(DELAY)
            out.write(f"move {rng.choice(moves)}\n")
        elif words[0] == "sneferu":
            out.write("id name instant\noption name Seed type spin default 0 min 0 max "
                      "2147483647\nfeature legalmoves\nsneferuok\n")
        elif words[0] == "setoption" and line.startswith("setoption name Seed value "):
            rng = random.Random(int(line.split()[-1]))
        elif words[0] == "isready":
            out.write("readyok\n")
        elif words[0] == "quit":
            return
        else:
            continue
        out.flush()


if __name__ == "__main__":
    main()
