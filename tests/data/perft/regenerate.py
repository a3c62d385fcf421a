"""Recompute the perft counts of the positions in this folder (see README.md here).

    python tests/data/perft/regenerate.py [--depth N] [FILE.json ...]

Each file keeps its name, description and position; its ``perft`` list is recomputed to
its current length (or to ``--depth``) and ``moves`` recounted. Without files, every
``*.json`` beside this script.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from sneferu_cli.games.sneferu.bench import perft_counts
from sneferu_cli.games.sneferu.position import from_position

HERE = Path(__file__).resolve().parent


def write(path: Path, data: dict[str, object]) -> None:
    """One key a line, the counts on one line: diffs show which depth changed."""
    body = ",\n".join(f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in data.items())
    path.write_text("{\n" + body + "\n}\n", encoding="utf-8")


def main() -> None:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--depth", type=int, default=None)
    args.add_argument("files", nargs="*", type=Path)
    opts = args.parse_args()
    for path in opts.files or sorted(HERE.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        depth = opts.depth or len(data["perft"])
        result = perft_counts(from_position(data["position"]), depth)
        data.update(result.record())
        write(path, data)
        print(f"{path.name}: perft {list(result.counts)}, {result.moves} moves, "
              f"{sum(result.seconds):.2f} s")


if __name__ == "__main__":
    main()
