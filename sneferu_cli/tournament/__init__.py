"""Tournaments: configuration, schedule, durable progress, standings and SPRT.

The runner (engines, concurrency, progress) builds on these: a :class:`TournamentConfig`
from :func:`load_config`; its :class:`Schedule`; a :class:`Journal` that commits each
finished game's record durably and recovers after a crash; :func:`compute_standings`
and :func:`sprt_result` from the records alone. SPEC.md section 9 is the specification.
"""

from .config import ConfigError, EngineConfig, SprtConfig, TournamentConfig, load_config
from .journal import Journal, Pending, StateError, TournamentState
from .schedule import (
    Game,
    Schedule,
    deal_seed,
    done_games,
    game_header,
    game_number,
    pending_games,
)
from .sprt import SprtResult, SprtTally, llr, sprt_result
from .standings import Standings, compute_standings, format_standings, to_csv, to_json

__all__ = [
    "ConfigError",
    "EngineConfig",
    "Game",
    "Journal",
    "Pending",
    "Schedule",
    "SprtConfig",
    "SprtResult",
    "SprtTally",
    "Standings",
    "StateError",
    "TournamentConfig",
    "TournamentState",
    "compute_standings",
    "deal_seed",
    "done_games",
    "format_standings",
    "game_header",
    "game_number",
    "llr",
    "load_config",
    "pending_games",
    "sprt_result",
    "to_csv",
    "to_json",
]
