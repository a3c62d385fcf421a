"""A linear softmax policy for Imhotep, trained by ``examples/train_imhotep.py`` with the
vectorized environment, played in tournaments through the bundled ``policy`` engine
(SPEC 16.4):

    sneferu tournament examples/imhotep_policy.toml

The weights are read from the file the environment variable ``IMHOTEP_POLICY`` names
(``imhotep_policy.npz`` in the working directory by default), written by the trainer.
At each decision :func:`choose` plays the legal action id of the highest score
``observation @ W + b`` (the trained policy's most likely action).
"""

from __future__ import annotations

import os

import numpy as np

_WEIGHTS: dict[str, np.ndarray] = {}


def weights() -> dict[str, np.ndarray]:
    """The trained ``W`` and ``b``, read once."""
    if not _WEIGHTS:
        path = os.environ.get("IMHOTEP_POLICY", "imhotep_policy.npz")
        with np.load(path) as saved:
            _WEIGHTS.update(W=saved["W"], b=saved["b"])
    return _WEIGHTS


def scores(observations: np.ndarray, masks: np.ndarray, w: np.ndarray, b: np.ndarray
           ) -> np.ndarray:
    """Each row's score of every action id, ``-inf`` for the illegal ones."""
    logits = observations @ w + b
    return np.where(masks != 0, logits, -np.inf)


def choose(observation: np.ndarray, mask: np.ndarray) -> int:
    """The legal action id the policy scores highest."""
    p = weights()
    row = np.asarray(observation, np.float32).reshape(1, -1)
    return int(np.argmax(scores(row, np.asarray(mask).reshape(1, -1), p["W"], p["b"])))
