"""The tournament configuration: one msgspec struct, read from TOML and/or command-line flags.

Every field is a TOML key and a flag of the same name (``time-control`` ↔
``--time-control``; the ``[sprt]`` table's keys ↔ ``--sprt-elo0`` ...; each ``[[engine]]``
table ↔ one ``--engine 'name=A command=./a'``). :func:`load_config` merges flags over the
file and checks the result; every problem is a :class:`ConfigError` naming the field.

>>> cfg = load_config(None, {"engine": ["name=a command=./a", "name=b command=./b"],
...                          "seed": 7})
>>> cfg.seats, cfg.deals, [e.name for e in cfg.engines]
(2, 10, ['a', 'b'])
"""

from __future__ import annotations

import hashlib
import math
import re
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

import msgspec

from ..arbiter.bundled import split_command
from ..arbiter.game import TimeControl
from ..arbiter.remote import LATENCY, parse_listen
from ..arbiter.sandbox import Sandbox
from ..edition import EditionError
from ..game import DEFAULT_GAME, MAX_DIGITS, Game, get_game, unnamed
from ..words import plural
from .errors import ConfigError as ConfigError  # where it was, for its callers
from .positions import load_positions

CLUSTER = re.compile(r"local:[1-9][0-9]{0,3}|[a-z]+://\S+")
"""What ``cluster`` may be: ``local:N`` or a scheduler address with its scheme."""


Fsync = Literal["game", "second"]
"""When a tournament's committed games are fsync-ed (SPEC.md 9.7): after every game, or at
most once a second."""

RUN_SETTINGS = ("records", "state", "concurrency", "cluster", "fsync", "listen", "latency",
                "connect-timeout", "live", "live-delay")
"""The keys that may change on resume: they say how a run goes, not which games it plays."""


class _Config(msgspec.Struct, frozen=True, forbid_unknown_fields=True, rename="kebab"):
    pass


class EngineConfig(_Config, frozen=True):
    """One engine: its unique name, the command that starts it (argv) or, for an engine
    that connects from elsewhere, the ``token`` it says in its hello (SPEC.md 6.7; not
    part of the fingerprint), its working directory (default: the current one), the
    options the arbiter sets at the start (as text: TOML numbers and booleans are
    written as TOML writes them), its own time control (``tc`` or ``movetime``: time
    odds; default the tournament's) or a search budget (``budget``, ``iterations N``: its
    time is then its own ``tc`` or ``movetime``, else the safety net
    :data:`~sneferu_cli.arbiter.game.BUDGET_MOVETIME`), ``anchor``, the rating the batch
    fit holds it at (SPEC.md 9.11; not part of the fingerprint), ``sandbox`` (its sandbox,
    ``LEVEL [KEY=VALUE ...]``, SPEC.md 7.10; default the tournament's) and ``check``
    (``sneferu engine check`` runs before it plays)."""

    name: str
    command: list[str] = []
    dir: str | None = None
    options: dict[str, str] = {}
    tc: str | None = None
    movetime: int | None = None
    budget: str | None = None
    anchor: float | None = None
    sandbox: str | None = None
    check: bool | None = None
    token: str | None = None

    def __post_init__(self) -> None:
        if self.anchor is not None and not math.isfinite(self.anchor):
            raise ValueError("anchor: must be a finite number")
        if not self.name.strip() or self.name != self.name.strip():
            raise ValueError("name: must be non-empty, without leading or trailing spaces")
        if any(not c.isprintable() for c in self.name):
            raise ValueError("name: must be printable text")
        if self.token is not None:
            if self.command:
                raise ValueError("token: an engine with a token connects from elsewhere: "
                                 "give it no command")
            if not self.token or not self.token.isascii() or not self.token.isprintable() \
                    or " " in self.token or len(self.token) > 256:
                raise ValueError("token: 1 to 256 printable ASCII characters, no spaces")
        elif not self.command or not self.command[0]:
            raise ValueError("command: must name a program (or give a token: an engine "
                             "that connects from elsewhere)")


ELO_LIMIT = {"normalized": 200, "logistic": 4000}
"""The largest Elo difference an SPRT bound may name, by model: the estimate of the
normalized model exists up to about 231 (pairs), the logistic one while the expected score
is not 0 or 1 in floating point (about 6,500)."""

MAX_DEALS = 1_000_000
"""The most deals a tournament may have."""


class SprtConfig(_Config, frozen=True):
    """A sequential probability ratio test between two engines (section 9.6 of SPEC.md).

    H0: the first engine's Elo advantage is ``elo0``; H1: it is ``elo1``. ``alpha`` and
    ``beta`` are the error rates; ``model`` is fastchess's ``normalized`` or ``logistic``.
    """

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    model: Literal["normalized", "logistic"] = "normalized"

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise ValueError("elo0 must be less than elo1")
        if not 0 < self.alpha < 1 or not 0 < self.beta < 1:
            raise ValueError("alpha and beta must be between 0 and 1")
        if self.alpha + self.beta >= 1:
            raise ValueError("alpha + beta must be less than 1")
        limit = ELO_LIMIT[self.model]
        for key, elo in (("elo0", self.elo0), ("elo1", self.elo1)):
            if not -limit <= elo <= limit:
                raise ValueError(f"{key}: {elo} is out of the {self.model} model's range "
                                 f"(-{limit} to {limit})")


class TournamentConfig(_Config, frozen=True):
    """Everything that defines a tournament (see SPEC.md section 9.1 for each field)."""

    engines: list[EngineConfig] = msgspec.field(name="engine", default_factory=list)
    event: str = "sneferu tournament"
    game: str = DEFAULT_GAME
    seats: int = 2
    format: Literal["round-robin", "gauntlet"] = "round-robin"
    challenger: str | None = None
    tables: list[list[str]] | None = None
    """The tables, each its engines' names, instead of those the format makes (a ladder
    round's)."""
    deals: int = 10
    seed: int | None = None
    seating: Literal["rotate", "permute"] = "rotate"
    setup: str | None = msgspec.field(name="builders", default=None)
    """The value of the game's seat set-up option (``RecordTags.option``); its TOML key is
    ``builders``, the one game's with one (Sneferu's builders variant)."""
    variant: str | None = None
    edition: str | None = None
    time_control: str | None = None
    movetime: int | None = None
    positions: str | None = None
    margin: int = 100
    handshake_timeout: float = 10.0
    sprt: SprtConfig | None = None
    records: str = "tournament.records"
    state: str | None = None
    concurrency: int | None = None
    cluster: str | None = None
    fsync: Fsync = "second"
    sandbox: str | None = None
    listen: str | None = None
    latency: int = LATENCY
    connect_timeout: float = 60.0
    live: str | None = None
    """Where the live page is served (``HOST:PORT`` or ``PORT``), None: no live page."""
    live_delay: int = 0
    """The live page shows each game's moves this many moves behind (all at its end)."""

    def remote(self) -> dict[str, int]:
        """The tokens of the engines that connect from elsewhere, each to its engine's
        index in :attr:`engines`."""
        return {e.token: i for i, e in enumerate(self.engines) if e.token is not None}

    @property
    def state_path(self) -> str:
        """Where the tournament state is kept: ``state``, else ``records`` + ``.state``."""
        return self.state or self.records + ".state"

    @property
    def challenger_name(self) -> str | None:
        """The gauntlet's challenger (default: the first engine); None in a round-robin."""
        if self.format != "gauntlet":
            return None
        return self.challenger or self.engines[0].name

    def timing(self) -> TimeControl:
        """The time control of every game: ``time-control`` (a game clock, SECONDS+INC),
        ``movetime`` (ms per move) or neither (the arbiter's default clock), as ``sneferu
        play`` reads ``--tc`` and ``--movetime``; ValueError when they cannot be used."""
        return TimeControl.parse(self.time_control, self.movetime, self.margin)

    def own_timing(self, name: str) -> TimeControl | None:
        """The engine ``name``'s own time control (its ``tc`` or ``movetime`` and its
        ``budget``, with the tournament's margin), or None when it plays with the
        tournament's."""
        e = self.engine(name)
        if e.tc is None and e.movetime is None and e.budget is None:
            return None
        return TimeControl.with_budget(e.budget, e.tc, e.movetime, self.margin)

    def own_sandbox(self, name: str) -> Sandbox:
        """The sandbox the engine ``name`` runs in: its own ``sandbox``, else the
        tournament's, else none (SandboxError when it is not well written)."""
        text = self.engine(name).sandbox or self.sandbox
        return Sandbox() if text is None else Sandbox.parse(text)

    def start_positions(self) -> list[str]:
        """The positions of the ``positions`` file (none without one), each game of deal
        *d* starting from the *d*-th in turn; ConfigError naming the file and line."""
        if self.positions is None:
            return []
        return load_positions(self.positions, self.seats, self.load_edition(), self.the_game())

    def anchors(self) -> dict[str, float]:
        """The engines' ``anchor`` ratings, by name (those given)."""
        return {e.name: e.anchor for e in self.engines if e.anchor is not None}

    def engine(self, name: str) -> EngineConfig:
        """The engine called ``name``."""
        for e in self.engines:
            if e.name == name:
                return e
        raise KeyError(name)

    def the_game(self) -> Game:
        """The game played (``game``; raises UnknownGame, a ValueError)."""
        return get_game(self.game)

    def load_edition(self) -> Any:
        """The edition the games are played with (raises EditionError or ValueError)."""
        game = self.the_game()
        return game.load_edition(Path(self.edition)) if self.edition else game.standard_edition()

    def resolved(self) -> TournamentConfig:
        """This configuration with a seed: a random one when none was given."""
        if self.seed is not None:
            return self
        return msgspec.structs.replace(self, seed=secrets.randbits(32))

    def fingerprint(self) -> str:
        """SHA-256 (hex) of the fields that define the games; the run settings
        (:data:`RUN_SETTINGS`) are left out so they may change on resume (``cluster`` and
        ``fsync`` are not encoded at all: the fingerprints of states written before they
        existed still match)."""
        return fingerprint_of(msgspec.to_builtins(self))


def fingerprint_of(fields: dict[str, Any]) -> str:
    """:meth:`TournamentConfig.fingerprint` of a configuration given as its JSON fields (as
    a state file holds them)."""
    games = {**fields, "records": "", "state": None, "concurrency": 1,
             "engine": [dict(engine) for engine in fields["engine"]]}
    for key in ("cluster", "fsync", "listen", "latency", "connect-timeout", "live",
                "live-delay"):
        games.pop(key, None)
    for engine in games["engine"]:  # an anchor rates the games, it does not define them
        engine.pop("anchor", None)
        if engine.get("token") is not None:  # a remote engine is named, not its token
            engine["command"] = ["(remote)"]
        engine.pop("token", None)
    if unnamed(games.get("game", DEFAULT_GAME)):  # as before there was a game key
        games.pop("game", None)
    # Keys added since the first state format count only when given, so the state of a
    # tournament started before them keeps its fingerprint.
    for table, keys in ((games, ("positions", "variant", "tables", "sandbox")),
                        *((engine, ("tc", "movetime", "budget", "sandbox", "check"))
                          for engine in games["engine"])):
        for key in keys:
            if table.get(key, 0) is None:
                del table[key]
    return hashlib.sha256(msgspec.json.encode(games)).hexdigest()


def check(cfg: TournamentConfig) -> None:
    """Raise ConfigError naming the first field that cannot be used together with the others."""
    try:
        _check(cfg)
    except EditionError as e:
        raise ConfigError(f"edition: {e}") from None
    except ValueError as e:
        raise ConfigError(str(e)) from None


def _check(cfg: TournamentConfig) -> None:
    names = [e.name for e in cfg.engines]
    if not names:
        raise ValueError("engine: no engines (give at least one)")
    for i, n in enumerate(names):
        if n in names[:i]:
            raise ValueError(f"engine[{i}].name: {n!r} is used twice")
    if not 1 <= cfg.seats <= 4:
        raise ValueError(f"seats: {cfg.seats} (1 to 4; 1 is solo against Ptah)")
    if not 1 <= cfg.deals <= MAX_DEALS:
        raise ValueError(f"deals: {_clip(cfg.deals)} (1 to {MAX_DEALS})")
    if cfg.seed is not None and cfg.seed < 0:
        raise ValueError(f"seed: {cfg.seed} (must be >= 0)")
    if cfg.challenger is not None and cfg.format != "gauntlet":
        raise ValueError("challenger: only for format = \"gauntlet\"")
    if cfg.format == "gauntlet":
        if cfg.seats < 2:
            raise ValueError("format: a gauntlet needs seats >= 2")
        if cfg.challenger is not None and cfg.challenger not in names:
            raise ValueError(f"challenger: {cfg.challenger!r} is not an engine's name")
        if len(names) < cfg.seats:
            raise ValueError(f"engine: a gauntlet at {cfg.seats} seats needs at least "
                             f"{cfg.seats} engines, not {len(names)}")
    elif len(names) < cfg.seats:
        raise ValueError(f"engine: {plural(len(names), 'engine')} cannot fill a table of "
                         f"{cfg.seats} seats")
    if cfg.tables is not None:
        if cfg.format == "gauntlet":
            raise ValueError("tables: not with format = \"gauntlet\" (the tables are given)")
        if not cfg.tables:
            raise ValueError("tables: no tables (give at least one, or leave the key out)")
        for i, table in enumerate(cfg.tables):
            if len(table) != cfg.seats or len(set(table)) != len(table):
                raise ValueError(f"tables[{i}]: {table} is not {cfg.seats} different engines")
            unknown = [n for n in table if n not in names]
            if unknown:
                raise ValueError(f"tables[{i}]: {unknown[0]!r} is not an engine's name")
    if cfg.cluster is not None and not CLUSTER.fullmatch(cfg.cluster):
        raise ValueError(f"cluster: {cfg.cluster!r} (local:N for N worker processes here, "
                         "or a Dask scheduler's address such as tcp://HOST:PORT)")
    if cfg.concurrency is not None and cfg.concurrency < 1:
        raise ValueError(f"concurrency: {cfg.concurrency} (at least 1)")
    if not cfg.handshake_timeout > 0:
        raise ValueError(f"handshake-timeout: {cfg.handshake_timeout} (must be > 0 seconds)")
    _check_remote(cfg)
    check_live(cfg)
    try:
        cfg.timing()
    except ValueError as e:
        key = ("margin" if cfg.margin < 0 else "movetime"
               if cfg.movetime is not None and cfg.time_control is None else "time-control")
        raise ValueError(f"{key}: {e}") from None
    for i, engine in enumerate(cfg.engines):
        try:
            cfg.own_timing(engine.name)
        except ValueError as e:
            key = ("budget" if engine.budget is not None and "budget" in str(e)
                   else "movetime" if engine.movetime is not None and engine.tc is None
                   else "tc")
            raise ValueError(f"engine[{i}].{key}: {e}") from None
    if cfg.sandbox is not None:
        try:
            Sandbox.parse(cfg.sandbox)
        except ValueError as e:
            raise ValueError(f"sandbox: {e}") from None
    for i, engine in enumerate(cfg.engines):
        try:
            cfg.own_sandbox(engine.name).require()
        except ValueError as e:
            key = "sandbox" if engine.sandbox is None else f"engine[{i}].sandbox"
            raise ValueError(f"{key}: {e}") from None
    try:
        game = cfg.the_game()
    except ImportError:
        raise ValueError(f"game: {cfg.game!r} is registered but not installed here") from None
    except ValueError as e:
        raise ValueError(f"game: {e}") from None
    edition = cfg.load_edition()
    tags = game.record_tags()
    if cfg.setup is not None and tags is None:
        raise ValueError(f"builders: {game.title} has no seat set-up option")
    if cfg.seats not in game.players:
        raise ValueError(f"seats: {cfg.seats} ({game.title} is for "
                         f"{min(game.players)} to {max(game.players)} players)")
    if tags is not None and cfg.variant is not None:
        raise ValueError(f"variant: {game.title}'s variant is chosen with {tags.option}")
    if cfg.setup is not None and tags is not None:
        try:  # the rules' own checks of the set-up for this many seats
            tags.new_game(cfg.seats, cfg.setup, edition=edition)
        except ValueError as e:
            key = f"{tags.option}: "
            raise ValueError(f"{key}{str(e).removeprefix(key)}") from None
    else:
        try:
            game.new_game(cfg.seats, variant=cfg.variant, edition=edition)
        except ValueError as e:
            raise ValueError(f"variant: {e}") from None
    if cfg.positions is not None:
        if cfg.setup is not None:
            raise ValueError("builders: not with positions (each position has its set-up)")
        if cfg.variant is not None:
            raise ValueError("variant: not with positions (each position has its variant)")
        try:
            cfg.start_positions()
        except ConfigError as e:
            raise ValueError(f"positions: {e}") from None
    if cfg.sprt is not None and (cfg.seats != 2 or len(names) != 2):
        raise ValueError("sprt: needs exactly two engines at tables of 2 seats")


MAX_LIVE_DELAY = 10_000
"""The most moves ``live-delay`` may hold back."""


def check_live(cfg: TournamentConfig) -> None:
    """The keys of the live page (SPEC.md 9.13): ValueError naming the key when wrong."""
    if cfg.live is not None:
        try:
            parse_listen(cfg.live)
        except ValueError as e:
            raise ValueError("live" + str(e).removeprefix("listen")) from None
        if cfg.cluster is not None:
            raise ValueError("live: not with a cluster (its workers report only finished "
                             "games)")
    if not 0 <= cfg.live_delay <= MAX_LIVE_DELAY:
        raise ValueError(f"live-delay: {cfg.live_delay} (0 to {MAX_LIVE_DELAY} moves)")


def _check_remote(cfg: TournamentConfig) -> None:
    """The keys of engines that connect from elsewhere (SPEC.md 6.7)."""
    if cfg.listen is not None:
        parse_listen(cfg.listen)
    if not 0 <= cfg.latency <= 60_000:
        raise ValueError(f"latency: {cfg.latency} (0 to 60000 milliseconds)")
    if not cfg.connect_timeout > 0:
        raise ValueError(f"connect-timeout: {cfg.connect_timeout} (must be > 0 seconds)")
    tokens = [e.token for e in cfg.engines if e.token is not None]
    if len(set(tokens)) < len(tokens):
        raise ValueError("token: two engines have the same token")
    if tokens and cfg.listen is None:
        raise ValueError("listen: engines with a token connect from elsewhere: give the "
                         "address to listen on (listen = \"127.0.0.1:9000\", or --listen)")
    if tokens and cfg.cluster is not None:
        raise ValueError("cluster: not with engines that connect from elsewhere (token)")
    for i, engine in enumerate(cfg.engines):
        if engine.token is not None and (engine.sandbox is not None or engine.check):
            key = "sandbox" if engine.sandbox is not None else "check"
            raise ValueError(f"engine[{i}].{key}: not for an engine that connects from "
                             "elsewhere (token): it runs on its own machine")


ENGINE_KEYS = ("name", "command", "token", "dir", "tc", "movetime", "budget", "sandbox",
               "check")
"""The keys of an ``--engine`` flag besides ``option.NAME``."""


def parse_engine_spec(text: str) -> dict[str, Any]:
    """An ``--engine`` flag's value as the ``[[engine]]`` table it stands for.

    Shell-like words ``key=value``: ``name``, ``command`` (itself split into words),
    ``dir``, ``tc`` or ``movetime`` (the engine's own time control), ``budget`` (its
    search budget, ``iterations N``), ``sandbox`` (``'cgroup memory=256M'``), ``check``
    (``true`` or ``false``) and ``option.NAME`` (one per option, values kept as text)::

        name=A command='./bot --fast' dir=bots tc=5+0.05 option.Depth=3 sandbox=bwrap
    """
    out: dict[str, Any] = {}
    options: dict[str, str] = {}
    try:
        words = split_command(text, "engine")
    except ValueError as e:
        raise ConfigError(str(e)) from None
    for word in words:
        key, eq, value = word.partition("=")
        if not eq:
            raise ConfigError(f"engine: {word!r} is not key=value")
        if key.startswith("option.") and len(key) > len("option."):
            options[key.removeprefix("option.")] = value
        elif key in ENGINE_KEYS and key not in out:
            out[key] = (_whole_number(value) if key == "movetime" else _truth(value)
                        if key == "check" else value)
        else:
            raise ConfigError(f"engine: {key!r}: expected {', '.join(ENGINE_KEYS)} or "
                              "option.NAME, each once")
    if options:
        out["options"] = options
    return out


def _truth(text: str) -> bool:
    if text not in ("true", "false"):
        raise ConfigError(f"engine: check={text!r} (true or false)")
    return text == "true"


def load_config(path: str | Path | None, flags: Mapping[str, Any] | None = None
                ) -> TournamentConfig:
    """The configuration from a TOML file (or none) with ``flags`` over it, checked.

    ``flags`` maps TOML keys (or the same with ``_`` for ``-``) to values (None = not
    given): top-level keys as in the file,
    ``sprt-elo0`` and the like for the ``[sprt]`` table, and ``engine`` to a list of
    ``--engine`` strings (see :func:`parse_engine_spec`), which replace the file's engines.
    An engine's ``command`` may be one string; it is split into words like a shell does.
    """
    raw: dict[str, Any] = {}
    source = "configuration"
    if path is not None:
        source = str(path)
        try:
            raw = msgspec.toml.decode(Path(path).read_bytes())
        except OSError as e:
            raise ConfigError(f"{path}: cannot read: {e.strerror}") from None
        except UnicodeDecodeError as e:
            raise ConfigError(f"{path}: not UTF-8 text (byte {e.start})") from None
        except msgspec.DecodeError as e:
            raise ConfigError(f"{path}: not valid TOML: {e}") from None
        except ValueError:  # an integer of more digits than Python reads (4300)
            raise ConfigError(f"{path}: not valid TOML: a number of more than {MAX_DIGITS} "
                              "digits") from None
        if not isinstance(raw, dict):  # pragma: no cover - TOML documents are tables
            raise ConfigError(f"{path}: not a table")
    for name, value in (flags or {}).items():
        if value is None:
            continue
        key = name.replace("_", "-")
        if key == "engine":
            raw["engine"] = [parse_engine_spec(v) for v in value]
        elif key.startswith("sprt-"):
            table = raw.get("sprt")
            raw["sprt"] = {**(table if isinstance(table, dict) else {}),
                           key.removeprefix("sprt-"): value}
        else:
            raw[key] = value
    for engine in raw.get("engine", []) if isinstance(raw.get("engine"), list) else []:
        if not isinstance(engine, dict):
            continue
        if isinstance(engine.get("command"), str):
            try:
                engine["command"] = split_command(engine["command"], "engine command")
            except ValueError as e:
                raise ConfigError(f"{source}: {e}") from None
        if isinstance(engine.get("options"), dict):
            engine["options"] = {k: _option_text(v) for k, v in engine["options"].items()}
    try:
        cfg = msgspec.convert(raw, TournamentConfig)
    except msgspec.ValidationError as e:
        raise ConfigError(f"{source}: {_field_first(str(e))}") from None
    try:
        check(cfg)
    except ConfigError as e:
        if (flags or {}).get("engine") and str(e).startswith("engine"):
            # the flags' engines, not the file's: name them as the source
            replaced = f" (they replace the engines of {path})" if path is not None else ""
            raise ConfigError(f"--engine{replaced}: {e}") from None
        raise ConfigError(f"{source}: {e}") from None
    return cfg


def _clip(n: int) -> str:
    """A number for a message: its digits, or how many there are when they are many."""
    text = str(n)
    return text if len(text) <= 20 else f"a number of {len(text)} digits"


def _whole_number(text: str) -> int | str:
    """An ``--engine`` value that must be an integer; other text is left for the type
    check to name."""
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 18 else text


def _option_text(value: Any) -> Any:
    """An option value as text, the way TOML writes it (others left for the type check)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    return value


def _field_first(message: str) -> str:
    """msgspec's 'Expected `int`, got `str` - at `$.deals`' as 'deals: expected ...'."""
    text, sep, where = message.rpartition(" - at `$")
    if not sep:
        return message[0].lower() + message[1:]
    where = where.rstrip("`").lstrip(".")
    return f"{where}: {text[0].lower()}{text[1:]}"
