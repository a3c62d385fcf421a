"""Durable progress: the record file and the state file of a tournament (SPEC.md 9.7).

Every finished game is committed before the next result is reported::

    1. the state is saved with the game as *pending*: its number, the record file's length
       before it (offset, the end of the games before it), the record's length and
       SHA-256;
    2. the record is appended to the record file, which is then fsync-ed.

The game is then committed: the state file names it pending, and the record file holds
all of it, which is what :meth:`Journal.resume` checks. The next game's step 1 saves the
new length with it, and :meth:`Journal.close` saves the state with no game pending, so a
game costs one state save and one fsync of the record file. A state save writes a
temporary file, fsyncs it, renames it over the state file and fsyncs the directory, so
the state file is always one whole version. Whatever the moment a run is killed
(SIGKILL or power loss included), :meth:`Journal.resume` finds the record file either at
the committed length, or holding the whole pending record (step 2 done: the game
counts), or holding part of it (cut off, so the game is played again). The record file
is the source of truth for which games are done; the state holds the configuration, its
fingerprint and the committed length.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import shlex
from pathlib import Path

import msgspec

from .config import ConfigError, TournamentConfig, check

STATE_FORMAT = "sneferu-tournament-state 1"


class StateError(ValueError):
    """A state or record file that cannot be used to start or resume a tournament."""


class Pending(msgspec.Struct, frozen=True):
    """The game being committed: where its record starts, its length and SHA-256 (hex)."""

    game: int
    offset: int
    length: int
    sha256: str


class TournamentState(msgspec.Struct, kw_only=True):
    """What is kept between runs: the configuration (with its seed), its fingerprint, the
    committed length of the record file and the number of games it holds."""

    format: str = STATE_FORMAT
    fingerprint: str
    config: TournamentConfig
    committed: int = 0
    games: int = 0
    pending: Pending | None = None

    @classmethod
    def load(cls, path: str | Path) -> TournamentState:
        """Read a state file (StateError when missing or damaged)."""
        try:
            raw = Path(path).read_bytes()
        except OSError as e:
            raise StateError(f"{path}: cannot read the tournament state: {e.strerror}"
                             ) from None
        try:
            state = msgspec.json.decode(raw, type=cls)
        except (msgspec.DecodeError, msgspec.ValidationError) as e:
            raise StateError(f"{path}: not a usable tournament state: {e}") from None
        if state.format != STATE_FORMAT:
            raise StateError(f"{path}: not a sneferu tournament state ({state.format!r})")
        if state.fingerprint != state.config.fingerprint():
            raise StateError(f"{path}: the fingerprint does not match the configuration")
        return state

    def save(self, path: str | Path) -> None:
        """Replace the state file atomically and durably."""
        data = msgspec.json.format(msgspec.json.encode(self)) + b"\n"
        try:
            write_atomically(Path(path), data)
        except OSError as e:
            raise StateError(f"{path}: cannot write the tournament state: {e.strerror}"
                             ) from None


def fsync_dir(path: Path) -> None:
    """Make a creation, rename or removal in directory ``path`` durable."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that a crash leaves either the old or the new file:
    temporary file, fsync, rename over ``path``, fsync of the directory."""
    tmp = path.with_name(f".{path.name}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        _write_all(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)
    fsync_dir(path.parent.resolve())


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


class Journal:
    """The record file (open for appending, locked) and the state of one tournament.

    Create with :meth:`start` or :meth:`resume`; :meth:`commit` each finished game from one
    thread at a time; :meth:`close` at the end (also a context manager).
    """

    def __init__(self, state: TournamentState, state_path: Path, fd: int) -> None:
        self.state = state
        self.state_path = state_path
        self.records_path = Path(state.config.records)
        self._fd = fd
        self.recovered = 0  # bytes of an unfinished record cut off by resume
        self._unsaved = False  # the state file names the last game committed as pending

    @property
    def config(self) -> TournamentConfig:
        """The tournament's configuration, with its seed."""
        return self.state.config

    @classmethod
    def start(cls, cfg: TournamentConfig) -> Journal:
        """Begin a new tournament: refuses when its state file exists or its record file is
        not empty (resume it, or move them away)."""
        cfg = cfg.resolved()
        state_path = Path(cfg.state_path)
        records = Path(cfg.records)
        if state_path.exists():
            raise StateError(f"{state_path}: a tournament state exists already (resume it: "
                             f"sneferu tournament --resume --state {shlex.quote(str(state_path))}"
                             f"; or remove it and {records} to start again)")
        if records.exists() and records.stat().st_size:
            raise StateError(f"{records}: the record file is not empty, and there is no "
                             f"tournament state ({state_path}) to resume from: choose another "
                             "record file, or move it away")
        fd = _open_records(records)
        try:
            os.ftruncate(fd, 0)
            state = TournamentState(fingerprint=cfg.fingerprint(), config=cfg)
            state.save(state_path)
        except BaseException:
            os.close(fd)
            raise
        return cls(state, state_path, fd)

    @classmethod
    def resume(cls, state_path: str | Path, cfg: TournamentConfig | None = None) -> Journal:
        """Continue the tournament of ``state_path``.

        ``cfg``, when given, must define the same games (its records, state and
        concurrency may differ; a missing seed means the stored one). The record file is
        brought back to its last whole game, as described in the module docstring.
        """
        path = Path(state_path)
        state = TournamentState.load(path)
        if cfg is not None:
            if cfg.seed is None:
                cfg = msgspec.structs.replace(cfg, seed=state.config.seed)
            if cfg.fingerprint() != state.fingerprint:
                raise StateError(f"{path}: the configuration is not the one the tournament "
                                 f"was started with ({_differences(state.config, cfg)})")
            state.config = cfg
        try:
            check(state.config)
        except ConfigError as e:
            raise StateError(f"{path}: {e}") from None
        records = Path(state.config.records)
        if not records.exists() and (state.committed or state.pending):
            raise StateError(f"{records}: the record file of this tournament is missing")
        fd = _open_records(records)
        try:
            journal = cls(state, path, fd)
            journal._recover()
        except BaseException:
            os.close(fd)
            raise
        return journal

    def _recover(self) -> None:
        st = self.state
        size = os.fstat(self._fd).st_size
        end = st.committed
        p = st.pending
        if (p is not None and p.offset == st.committed and size >= p.offset + p.length
                and hashlib.sha256(os.pread(self._fd, p.length, p.offset)).hexdigest()
                == p.sha256):
            end = p.offset + p.length
            st.games += 1
        if size < end:
            raise StateError(f"{self.records_path}: the record file is shorter than its "
                             f"tournament state says ({size} < {end} bytes): it was changed")
        if size > end:
            os.ftruncate(self._fd, end)
            os.fsync(self._fd)
            self.recovered = size - end
        st.committed, st.pending = end, None
        st.save(self.state_path)

    def commit(self, game: int, record: bytes) -> None:
        """Append one finished game's record durably (see the module docstring). The
        state in memory has it committed, no game pending; the state file names it
        pending until the next commit or :meth:`close`."""
        st = self.state
        offset = st.committed
        st.pending = Pending(game, offset, len(record), hashlib.sha256(record).hexdigest())
        self._save()
        try:
            self._append(record)
        except BaseException:
            try:  # leave the file as committed; resume would do the same
                os.ftruncate(self._fd, offset)
            finally:
                st.pending = None
            raise
        st.committed = offset + len(record)
        st.games += 1
        st.pending = None
        self._unsaved = True

    def _save(self) -> None:
        self.state.save(self.state_path)
        self._unsaved = False

    def _append(self, data: bytes) -> None:
        _write_all(self._fd, data)
        os.fsync(self._fd)

    def fileno(self) -> int:
        """The record file's descriptor (-1 once closed)."""
        return self._fd

    def close(self) -> None:
        """Save the state with no game pending, and release the record file. The save
        only tidies: a state file that names the last game pending resumes the same."""
        if self._fd >= 0:
            try:
                if self._unsaved:
                    with contextlib.suppress(StateError):
                        self._save()
            finally:
                os.close(self._fd)
                self._fd = -1

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _open_records(path: Path) -> int:
    """Open (creating) the record file for appending and lock it against a second run."""
    existed = path.exists()
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
    except OSError as e:
        raise StateError(f"{path}: cannot open the record file: {e.strerror}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise StateError(f"{path}: another process is running this tournament") from None
    if not existed:
        fsync_dir(path.parent.resolve())
    return fd


def _differences(old: TournamentConfig, new: TournamentConfig) -> str:
    a, b = msgspec.to_builtins(old), msgspec.to_builtins(new)
    keys = [k for k in {**a, **b} if k not in ("records", "state", "concurrency", "cluster")
            and a.get(k) != b.get(k)]
    return "differs in: " + ", ".join(keys)
