"""Folders that ship with the package: the grammars (``protocol/``) and engines (``engines/``).

In an installed package they travel inside it (``sneferu_cli/grammars``,
``sneferu_cli/engines``: pyproject's force-include); in a source checkout they are read
from the top of the repository.
"""

from __future__ import annotations

import functools
from importlib import resources
from pathlib import Path


@functools.cache
def shipped_dir(packaged: str, source: str) -> Path:
    """``sneferu_cli/<packaged>`` when installed, else ``<repository>/<source>``."""
    inside = resources.files("sneferu_cli").joinpath(packaged)
    if inside.is_dir():
        return Path(str(inside))
    checkout = Path(__file__).resolve().parents[1] / source
    if checkout.is_dir():
        return checkout
    raise FileNotFoundError(f"{source}/ is missing from this installation of sneferu")
