"""Durable progress: the record file and the state file of a tournament (SPEC.md 9.7).

Committing a finished game (before its result is reported) writes, with no fsync:

    1. the record, appended to the record file;
    2. one line naming it (:class:`Pending`: its number, the record file's length before
       it, the record's length and SHA-256), appended to the *commit log* ``STATE.commits``.

Both are then in the kernel, which writes them whatever happens to the process: a run
killed (SIGKILL, a crash) loses no committed game. A **checkpoint** makes them durable
against a power loss too: the record file is fsync-ed, then the state is saved with the
new committed length (a temporary file, fsync-ed, renamed over the state file, and the
directory fsync-ed: the state file is always one whole version), then the commit log is
emptied. As a database's group commit (SQLite's ``synchronous``, PostgreSQL's
``synchronous_commit``, Redis's ``appendfsync everysec``), a checkpoint follows a commit
at most once a second (``fsync = "second"``, the default: :meth:`Journal.sync_due` also
takes one when a committed game has waited a second) or after every game (``fsync =
"game"``), and always at the end of a run.

:meth:`Journal.resume` starts from the state file's committed length (the record file
holds at least that much: it was fsync-ed before the state was saved), counts each
game of the commit log whose record is whole in the record file right after the games
before it (its length and SHA-256 match), stops at the first that is not, and cuts off
whatever follows: an unfinished record. So after a SIGKILL at any moment no committed
game is lost; after a power loss, only the games committed since the last checkpoint
(about a second's worth) may be, and those are played again. The record file is the
source of truth for which games are done; the state holds the configuration, its
fingerprint and the committed length.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import shlex
import time
from pathlib import Path

import msgspec

from .config import RUN_SETTINGS, ConfigError, Fsync, TournamentConfig, check

STATE_FORMAT = "sneferu-tournament-state 1"

SYNC_INTERVAL = 1.0
"""Seconds a committed game waits at most for its checkpoint with ``fsync = "second"``."""


class StateError(ValueError):
    """A state or record file that cannot be used to start or resume a tournament."""


class Pending(msgspec.Struct, frozen=True):
    """A committed game, as the commit log names it (and as a state file of an earlier
    version names the game it was committing): its number, where its record starts in
    the record file, its length and SHA-256 (hex)."""

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
    """The record file (open for appending, locked), the commit log and the state of one
    tournament.

    Create with :meth:`start` or :meth:`resume`; :meth:`commit` each finished game from one
    thread at a time, calling :meth:`sync_due` now and then (the run does, about four
    times a second); :meth:`close` at the end (also a context manager).
    """

    def __init__(self, state: TournamentState, state_path: Path, fd: int, log: int) -> None:
        self.state = state
        self.state_path = state_path
        self.records_path = Path(state.config.records)
        self.log_path = commit_log_path(state_path)
        self.fsync: Fsync = state.config.fsync
        """When a checkpoint follows a commit: after every ``game``, or once a ``second``."""
        self._fd = fd
        self._log = log
        self.recovered = 0  # bytes of an unfinished record cut off by resume
        self._unsynced = False  # games committed since the last checkpoint
        self._synced_at = time.monotonic()

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
        log = -1
        try:
            os.ftruncate(fd, 0)
            state = TournamentState(fingerprint=cfg.fingerprint(), config=cfg)
            state.save(state_path)
            log = _open_log(commit_log_path(state_path))
            os.ftruncate(log, 0)  # another tournament's, left behind: not this one's games
        except BaseException:
            _close(fd, log)
            raise
        return cls(state, state_path, fd, log)

    @classmethod
    def resume(cls, state_path: str | Path, cfg: TournamentConfig | None = None) -> Journal:
        """Continue the tournament of ``state_path``.

        ``cfg``, when given, must define the same games (its records, state, concurrency
        and fsync may differ; a missing seed means the stored one). The record file is
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
        log = -1
        try:
            log = _open_log(commit_log_path(path))
            journal = cls(state, path, fd, log)
            journal._recover()
        except BaseException:
            _close(fd, log)
            raise
        return journal

    def _recover(self) -> None:
        st = self.state
        size = os.fstat(self._fd).st_size
        if size < st.committed:
            raise StateError(f"{self.records_path}: the record file is shorter than its "
                             f"tournament state says ({size} < {st.committed} bytes): it was "
                             "changed")
        end, games = st.committed, st.games
        # a state written by an earlier version may name one game pending
        for p in ([st.pending] if st.pending is not None else []) + self._logged():
            if p.offset < end:
                continue  # counted already (the log was not emptied after a checkpoint)
            if (p.offset > end or size < end + p.length or hashlib.sha256(
                    os.pread(self._fd, p.length, end)).hexdigest() != p.sha256):
                break
            end += p.length
            games += 1
        if size > end:
            os.ftruncate(self._fd, end)
            os.fsync(self._fd)
            self.recovered = size - end
        st.committed, st.games, st.pending = end, games, None
        st.save(self.state_path)
        os.ftruncate(self._log, 0)

    def _logged(self) -> list[Pending]:
        """The commit log's games, up to its first line that is not whole and valid."""
        data = b""
        while chunk := os.read(self._log, 1 << 20):
            data += chunk
        out = []
        for line in data.split(b"\n")[:-1]:  # the last is unfinished or empty
            try:
                out.append(msgspec.json.decode(line, type=Pending))
            except (msgspec.DecodeError, msgspec.ValidationError):
                break
        return out

    def commit(self, game: int, record: bytes) -> None:
        """Commit one finished game (see the module docstring): its record is appended to
        the record file and named in the commit log (no fsync: a killed run keeps it),
        and a checkpoint follows when one is due."""
        st = self.state
        offset = st.committed
        line = msgspec.json.encode(Pending(game, offset, len(record),
                                           hashlib.sha256(record).hexdigest())) + b"\n"
        try:
            self._append(record)
            _write_all(self._log, line)
        except BaseException:
            os.ftruncate(self._fd, offset)  # leave the file as committed; resume would too
            raise
        st.committed = offset + len(record)
        st.games += 1
        self._unsynced = True
        self.sync_due()

    def _append(self, data: bytes) -> None:
        _write_all(self._fd, data)

    def _save(self) -> None:
        self.state.save(self.state_path)

    def sync_due(self) -> None:
        """A checkpoint, when a committed game has not had one: at once with ``fsync =
        "game"``, else once the last checkpoint is a second old."""
        if self._unsynced and (self.fsync == "game"
                               or time.monotonic() - self._synced_at >= SYNC_INTERVAL):
            self.checkpoint()

    def checkpoint(self) -> None:
        """Make every committed game durable: fsync the record file, save the state with
        its committed length, empty the commit log."""
        os.fsync(self._fd)
        self._save()
        os.ftruncate(self._log, 0)
        self._unsynced = False
        self._synced_at = time.monotonic()

    def files(self) -> tuple[int, ...]:
        """The descriptors of the record file and the commit log (none once closed)."""
        return tuple(fd for fd in (self._fd, self._log) if fd >= 0)

    def close(self) -> None:
        """Take the last checkpoint, remove the commit log and release the record file.
        A checkpoint that fails leaves the commit log, from which a resume counts the
        games it names."""
        if self._fd >= 0:
            try:
                if self._unsynced:
                    with contextlib.suppress(StateError, OSError):
                        self.checkpoint()
                if not self._unsynced:
                    with contextlib.suppress(OSError):
                        os.remove(self.log_path)
            finally:
                _close(self._fd, self._log)
                self._fd = self._log = -1

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def commit_log_path(state_path: str | Path) -> Path:
    """The commit log of the state file ``state_path``: beside it, ``.commits`` added."""
    path = Path(state_path)
    return path.with_name(path.name + ".commits")


def _open_log(path: Path) -> int:
    try:
        return os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
    except OSError as e:
        raise StateError(f"{path}: cannot open the commit log: {e.strerror}") from None


def _close(*fds: int) -> None:
    for fd in fds:
        if fd >= 0:
            os.close(fd)


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
    keys = [k for k in {**a, **b} if k not in RUN_SETTINGS
            and a.get(k) != b.get(k)]
    return "differs in: " + ", ".join(keys)
