"""Game-free text helpers for messages: counts with their noun, long text clipped.

>>> plural(1, "stone"), plural(21, "stone"), plural(0, "turn")
('1 stone', '21 stones', '0 turns')
>>> clip("abcdef", 3)
'abc...'
"""

from __future__ import annotations

__all__ = ["clip", "plural"]


def plural(n: int, word: str) -> str:
    """``n`` and the noun, in the plural unless ``n`` is 1: ``1 stone``, ``2 stones``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def clip(text: str, n: int = 80) -> str:
    """``text`` cut to ``n`` characters, with ``...`` when it was longer (for messages)."""
    return text if len(text) <= n else text[:n] + "..."
