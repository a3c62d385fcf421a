"""The tournament's configuration error, apart so that the modules that read a
configuration's files (:mod:`.positions`) and :mod:`.config`, which calls them, need not
import each other."""

from __future__ import annotations

__all__ = ["ConfigError"]


class ConfigError(ValueError):
    """A tournament configuration that cannot be used; the message names the field."""
