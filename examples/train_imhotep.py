"""Train a policy for Imhotep with the vectorized environment, then enter it in a
tournament (SPEC 16.6; the ``rl`` extra; numpy only). From a checkout:

    python examples/train_imhotep.py                    # 600,000 steps, then 200 games
    python examples/train_imhotep.py --steps 6000 --deals 1  # a smoke run

REINFORCE in self-play: a linear softmax policy over the legal action ids (scores
``observation @ W + b``, the illegal ids masked out) plays every seat of ``--envs``
2-player games stepped together by ``sneferu_cli.rl.vector``; when a game ends, each of
its decisions is pushed towards (or away from) the action taken by its seat's return
(win 1, loss -1), with Adam, a batch at a time. The weights are saved to ``--out``
(``imhotep_policy.npz``), then ``sneferu tournament examples/imhotep_policy.toml`` plays
them through the bundled ``policy`` engine (``examples/imhotep_policy.py``) against
``random`` and ``greedy``, ``--deals`` deals each in both seatings, and prints its
standings.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from sneferu_cli.rl.vector import vector_env

ROOT = Path(__file__).resolve().parent.parent


class Adam:
    """Adam ascent on a list of arrays, in place."""

    def __init__(self, params: list[np.ndarray], rate: float) -> None:
        self.params, self.rate, self.t = params, rate, 0
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]

    def ascend(self, grads: list[np.ndarray]) -> None:
        self.t += 1
        for p, g, m, v in zip(self.params, grads, self.m, self.v, strict=True):
            m *= 0.9
            m += 0.1 * g
            v *= 0.999
            v += 0.001 * g * g
            p += (self.rate * (m / (1 - 0.9**self.t))
                  / (np.sqrt(v / (1 - 0.999**self.t)) + 1e-8)).astype(p.dtype)


def legal_scores(x: np.ndarray, masks: np.ndarray, w: np.ndarray, b: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The scores of the legal action ids only (a few per row, not all 1429): their rows,
    ids and scores, in row order, and where each row's start."""
    rows, ids = np.nonzero(masks)
    values = np.einsum("ij,ji->i", x[rows], w[:, ids]) + b[ids]
    counts = np.bincount(rows, minlength=len(masks))
    return rows, ids, values, np.cumsum(counts) - counts


def train(steps: int, envs: int, seed: int, batch: int, rate: float
          ) -> tuple[dict[str, np.ndarray], str]:
    """The trained weights and a line of figures, after ``steps`` decisions."""
    generator = np.random.default_rng(seed)
    with vector_env(game="imhotep", players=2, num_envs=envs) as v:
        size = v.single_observation_space["observation"].shape[0]
        w = np.zeros((size, v.single_action_space.n), np.float32)
        b = np.zeros(v.single_action_space.n, np.float32)
        adam = Adam([w, b], rate)
        obs, infos = v.reset(seed=seed)
        playing: list[list[tuple[np.ndarray, np.ndarray, int, int]]] = [[] for _ in range(envs)]
        ready: list[tuple[np.ndarray, np.ndarray, int, float]] = []
        games = 0
        t0 = time.perf_counter()
        env_seconds = 0.0
        for _ in range(-(-steps // envs)):
            rows, ids, values, starts = legal_scores(obs["observation"], obs["action_mask"],
                                                     w, b)
            noisy = values + generator.gumbel(size=len(values))  # a softmax draw a row
            chosen = ids[np.lexsort((-noisy, rows))[starts]]
            for i in range(envs):
                playing[i].append((obs["observation"][i], obs["action_mask"][i],
                                   int(chosen[i]), int(infos["seat"][i])))
            t1 = time.perf_counter()
            obs, rewards, terminations, _, infos = v.step(chosen)
            env_seconds += time.perf_counter() - t1
            for i in np.flatnonzero(terminations):
                games += 1
                ready += [(o, m, a, float(rewards[i, seat])) for o, m, a, seat in playing[i]]
                playing[i] = []
            if len(ready) >= batch:
                adam.ascend(gradient(ready, w, b))
                ready = []
        seconds = time.perf_counter() - t0
        done = -(-steps // envs) * envs
    figures = (f"{done:,} steps in {seconds:.1f} s ({done / seconds:,.0f} steps/s; the "
               f"environment alone {done / env_seconds:,.0f} steps/s), {games:,} games, "
               f"{envs} environments")
    return {"W": w, "b": b}, figures


def gradient(ready: list[tuple[np.ndarray, np.ndarray, int, float]], w: np.ndarray,
             b: np.ndarray) -> list[np.ndarray]:
    """REINFORCE's gradient of the mean return over the decisions ``ready`` (observation,
    mask, action id taken, the seat's return), for ``W`` and ``b``: each decision's
    ``(onehot(taken) - softmax) * return``, on its legal ids only."""
    x = np.stack([r[0] for r in ready])
    rows, ids, values, starts = legal_scores(x, np.stack([r[1] for r in ready]), w, b)
    taken = np.array([r[2] for r in ready])
    returns = np.array([r[3] for r in ready], np.float32)
    e = np.exp(values - np.maximum.reduceat(values, starts)[rows])
    g = ((ids == taken[rows]) - e / np.add.reduceat(e, starts)[rows]) * returns[rows]
    g /= len(ready)
    columns, where = np.unique(ids, return_inverse=True)
    dense = np.zeros((len(ready), len(columns)), np.float32)
    dense[rows, where] = g
    dw = np.zeros_like(w)
    dw[:, columns] = x.T @ dense
    db = np.zeros_like(b)
    np.add.at(db, ids, g)
    return [dw, db]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=600_000, help="decisions to train on")
    parser.add_argument("--envs", type=int, default=64, help="games stepped together")
    parser.add_argument("--batch", type=int, default=4096, help="decisions an update")
    parser.add_argument("--rate", type=float, default=0.003, help="Adam's step size")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default="imhotep_policy.npz", help="the weights' file")
    parser.add_argument("--deals", type=int, default=50,
                        help="tournament deals against each of random and greedy")
    parser.add_argument("--records", default="imhotep_policy.records",
                        help="the tournament's records (replaced)")
    args = parser.parse_args(argv)
    params, figures = train(args.steps, args.envs, args.seed, args.batch, args.rate)
    print(f"trained: {figures}")
    out = Path(args.out).resolve()
    np.savez(out, **params)
    print(f"saved: {out}")
    sys.stdout.flush()
    records = Path(args.records).resolve()
    for old in (records, records.with_name(records.name + ".state")):
        old.unlink(missing_ok=True)  # this script's last run: replaced
    r = subprocess.run([sys.executable, "-m", "sneferu_cli", "tournament",
                        "examples/imhotep_policy.toml", "--deals", str(args.deals),
                        "--records", str(records)],
                       cwd=ROOT, env={**os.environ, "IMHOTEP_POLICY": str(out)})
    return r.returncode


if __name__ == "__main__":
    sys.exit(main())
