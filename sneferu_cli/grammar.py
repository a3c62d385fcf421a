"""The Lark grammars of ``protocol/``: where they are and one cached parser per start rule.

The grammar files are those of ``protocol/`` (:func:`sneferu_cli.shipped.shipped_dir`).
Lark itself is imported when a text is first parsed (or ``Token``, ``Tree`` or
``Transformer`` first asked for here): the fast readers leave most commands without
parsing anything, and importing Lark takes some 14 ms.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .game import NotationError, bound_numbers
from .shipped import shipped_dir
from .words import clip

if TYPE_CHECKING:
    from lark import Lark, Token, Transformer, Tree

__all__ = ["Token", "Transformer", "Tree", "grammar_dir", "parse", "parser"]


def __getattr__(name: str) -> Any:
    """``Token``, ``Tree`` and ``Transformer``: Lark's, imported now."""
    if name in ("Token", "Transformer", "Tree"):
        import lark

        return getattr(lark, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def grammar_dir() -> Path:
    """The folder holding the ``.lark`` files."""
    return shipped_dir("grammars", "protocol")


def _imported(base_path: str | None, grammar_path: str) -> tuple[str, str]:
    """Lark's loader for ``%import``: a Lark name has no ``-``, so a grammar imports the
    file ``<game>-move.lark`` as ``<game>_move`` (``%import sneferu_move (move)``). OSError
    when there is no such file (Lark then tries its own places)."""
    path = grammar_dir() / grammar_path.replace("_", "-")
    return str(path), path.read_text(encoding="utf-8")


@functools.cache
def parser(grammar: str, start: str) -> Lark:
    """A LALR parser for rule ``start`` of ``protocol/<grammar>.lark``."""
    from lark import Lark

    path = grammar_dir() / f"{grammar}.lark"
    return Lark(path.read_text(encoding="utf-8"), start=start, parser="lalr",
                import_paths=[str(grammar_dir()), _imported], maybe_placeholders=False)


def parse(grammar: str, start: str, text: str, what: str) -> Tree[Token]:
    """Parse ``text``; any error becomes one NotationError naming ``what`` and the column
    (or saying that a number is too long to read, :func:`~sneferu_cli.game.bound_numbers`)."""
    from lark import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput

    bound_numbers(text, what)
    try:
        return parser(grammar, start).parse(text)
    except UnexpectedEOF:
        raise NotationError(f"{what}: ends too early: {clip(text)!r}") from None
    except UnexpectedCharacters as e:
        raise NotationError(f"{what}: unexpected {text[e.pos_in_stream:][:12]!r} at column "
                            f"{e.column}: {clip(text)!r}") from None
    except UnexpectedInput as e:
        tok = getattr(e, "token", None)
        if tok is None or tok.type == "$END":
            raise NotationError(f"{what}: ends too early: {clip(text)!r}") from None
        raise NotationError(f"{what}: unexpected {str(tok)!r} at column {e.column}: "
                            f"{clip(text)!r}") from None
