"""The examples in the docstrings of every module of the installed package run and hold."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import sneferu_cli


def modules() -> list[str]:
    # __main__ runs the command line when imported; it has no examples.
    return [m.name for m in pkgutil.walk_packages(sneferu_cli.__path__, "sneferu_cli.")
            if not m.name.endswith(".__main__")]


def test_every_docstring_example_passes():
    failures, attempted = [], 0
    for name in ["sneferu_cli", *modules()]:
        result = doctest.testmod(importlib.import_module(name), verbose=False, report=False)
        attempted += result.attempted
        if result.failed:
            failures.append(f"{name}: {result.failed} of {result.attempted} failed")
    assert not failures, "\n".join(failures)
    assert attempted >= 20  # the package has examples; an empty walk would pass silently
