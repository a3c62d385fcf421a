"""Confining an engine's process: resource limits, bubblewrap, cgroups (SPEC.md 7.10).

A :class:`Sandbox` is a level and its limits, written ``LEVEL [KEY=VALUE ...]``
(``cgroup memory=256M pids=64 cpu=30``). Each level adds to the one before:

- ``none``: the engine runs as the user who started the arbiter, as any program.
- ``limits``: resource limits set in the child before it runs the program (CPU seconds,
  open files, processes of the user, no core files, the largest file written).
- ``bwrap``: also Debian's ``bubblewrap``: no network, its own PID namespace, a read-only
  view of the system, of the Python the arbiter runs on and of the engine's own folder, a
  private writable ``/tmp`` (its HOME and TMPDIR); nothing else of the file system.
- ``cgroup``: also a memory limit, a process-count limit and a CPU share, each engine in
  cgroups of its own (v1 or v2, detected), removed when the engine is killed.

:meth:`Sandbox.require` refuses a level that cannot be enforced on this machine with a
one-line :class:`SandboxError`; a level is never silently weaker. :meth:`Sandbox.confine`
turns one command into a :class:`Confined` process set-up: its argv (bubblewrap's command
line sets its environment), what runs in the child before ``exec``, the named fault of its
death (``memory``, ``cpu``, ``processes``) and the cleanup after it.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import resource
import shutil
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["LEVELS", "SANDBOX_FAULTS", "Confined", "Limits", "Sandbox", "SandboxError",
           "cgroup_root"]

LEVELS = ("none", "limits", "bwrap", "cgroup")
"""The sandbox levels, each enforcing what the one before does and more."""

SANDBOX_FAULTS = ("memory", "cpu", "processes")
"""The fault kinds of an engine the sandbox killed or stopped (SPEC.md 7.2)."""

CGROUP_FS = Path("/sys/fs/cgroup")


class SandboxError(ValueError):
    """A sandbox that cannot be written or enforced here (one line naming what)."""


_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}


def _size(key: str, text: str) -> int:
    """Bytes written ``N``, ``NK``, ``NM`` or ``NG`` (powers of 1024)."""
    unit = text[-1:].upper() if text[-1:].isalpha() else ""
    digits = text[:-1] if unit else text
    if unit not in _UNITS or not digits.isdigit() or int(digits) < 1:
        raise SandboxError(f"sandbox: {key}={text!r} is not a size (like 256M or 2G)")
    return int(digits) * _UNITS[unit]


def _count(key: str, text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 1 << 40:
        raise SandboxError(f"sandbox: {key}={text!r} is not a whole number >= 1")
    return int(text)


def _show_size(n: int) -> str:
    for unit in "GMK":
        if n % _UNITS[unit] == 0:
            return f"{n // _UNITS[unit]}{unit}"
    return str(n)


@dataclass(frozen=True)
class Limits:
    """What a sandbox allows one engine process (and everything it starts).

    ``cpu``: CPU seconds over the engine's whole life (RLIMIT_CPU; an engine plays many
    games); ``files``: open files (RLIMIT_NOFILE); ``fsize``: the largest file it may write
    (RLIMIT_FSIZE); ``pids``: processes (the cgroup's, and at ``limits`` the user's
    processes now plus these, RLIMIT_NPROC, which does not bind root); ``memory``: bytes
    (cgroup); ``shares``: its CPU weight against the other engines (cgroup v1
    ``cpu.shares``; v2 ``cpu.weight`` is ``shares`` * 100 / 1024); ``tmp``: the size of its
    private ``/tmp`` (bwrap)."""

    cpu: int = 3600
    files: int = 256
    fsize: int = 64 << 20
    pids: int = 64
    memory: int = 1 << 30
    shares: int = 1024
    tmp: int = 64 << 20

    def words(self) -> list[str]:
        """The limits that differ from the defaults, as ``KEY=VALUE`` words."""
        out = []
        for key, default in vars(Limits()).items():
            value = getattr(self, key)
            if value != default:
                sized = key in ("fsize", "memory", "tmp")
                out.append(f"{key}={_show_size(value) if sized else value}")
        return out


_KEYS = {"cpu": _count, "files": _count, "fsize": _size, "pids": _count, "memory": _size,
         "shares": _count, "tmp": _size}


@dataclass(frozen=True)
class Sandbox:
    """A sandbox level and its limits (see the module's description)."""

    level: str = "none"
    limits: Limits = field(default_factory=Limits)

    @classmethod
    def parse(cls, text: str) -> Sandbox:
        """``LEVEL [KEY=VALUE ...]``; SandboxError naming the word that is wrong. Written
        back with the limits that differ from the defaults only, in a fixed order.

        >>> str(Sandbox.parse("cgroup memory=256M pids=16"))
        'cgroup pids=16 memory=256M'
        """
        words = text.split()
        if not words or words[0] not in LEVELS:
            raise SandboxError(f"sandbox: {text.strip()!r}: the level is one of "
                               f"{', '.join(LEVELS)} (then KEY=VALUE limits)")
        values: dict[str, int] = {}
        for word in words[1:]:
            key, eq, value = word.partition("=")
            if not eq or key not in _KEYS or key in values:
                raise SandboxError(f"sandbox: {word!r}: expected KEY=VALUE, KEY one of "
                                   f"{', '.join(_KEYS)}, each once")
            values[key] = _KEYS[key](key, value)
        return cls(words[0], Limits(**values))

    def __str__(self) -> str:
        return " ".join([self.level, *self.limits.words()])

    @property
    def active(self) -> bool:
        return self.level != "none"

    def require(self) -> None:
        """SandboxError (one line: the level and what is missing) when this level cannot
        be enforced here; nothing for ``none``."""
        rank = LEVELS.index(self.level)
        if rank >= LEVELS.index("bwrap"):
            problem = _bwrap_problem()
            if problem:
                raise SandboxError(f"sandbox {self.level}: {problem}")
        if rank >= LEVELS.index("cgroup"):
            _cgroups()  # raises SandboxError

    def confine(self, argv: Sequence[str], cwd: str | Path | None) -> Confined:
        """The set-up that starts ``argv`` in ``cwd`` (default: the current folder) inside
        this sandbox: call :meth:`require` first. Creates the engine's cgroups."""
        argv = list(argv)
        if self.level == "none":
            return Confined(argv, None)
        limits = self.limits
        folder = Path(cwd or ".").resolve()
        groups: list[Path] = []
        version = 0
        if self.level == "cgroup":
            version, groups = _make_cgroups(limits)
        if self.level in ("bwrap", "cgroup"):
            argv = _bwrap_argv(argv, folder, limits)
        nproc = None
        if os.geteuid() != 0:
            nproc = _user_processes() + limits.pids
        return Confined(argv, _preexec(limits, nproc, groups), groups=groups,
                        version=version, bwrapped=self.level in ("bwrap", "cgroup"),
                        memory_limited=self.level == "cgroup")


@dataclass
class Confined:
    """One engine process's sandbox: ``argv`` to run (bubblewrap's command line, which
    sets the engine's environment), ``preexec`` for ``Popen`` (None: nothing), and after
    the process dies :meth:`fault_kind` and :meth:`cleanup`."""

    argv: list[str]
    preexec: Callable[[], None] | None
    groups: list[Path] = field(default_factory=list)
    version: int = 0
    bwrapped: bool = False
    memory_limited: bool = False

    def signal_of(self, code: int) -> int | None:
        """The signal that killed the engine, from its exit status (bubblewrap passes on
        a signal death as the exit code 128 + the signal), or None."""
        if code < 0:
            return -code
        if self.bwrapped and 128 < code < 128 + 65:
            return code - 128
        return None

    def fault_kind(self, code: int) -> tuple[str, str] | None:
        """The sandbox fault (kind, detail) that explains the engine's exit with status
        ``code`` (``Popen.returncode``), or None for an ordinary crash."""
        oom = _oom_kills(self.groups, self.version) if self.groups else None
        if oom:
            return "memory", "killed at its memory limit (the cgroup's OOM killer)"
        if self.groups and _pids_hit(self.groups, self.version):
            return "processes", "reached its process limit (a fork failed)"
        sig = self.signal_of(code)
        if sig == signal.SIGXCPU:
            return "cpu", "used up its CPU seconds (SIGXCPU)"
        if sig == signal.SIGKILL and self.memory_limited and oom is None:
            # a kernel without the OOM-kill counter: a SIGKILL is taken for the OOM killer
            return "memory", "killed by SIGKILL under a memory limit"
        return None

    def cleanup(self) -> None:
        """Kill whatever is left in the engine's cgroups and remove them. Never raises."""
        for group in self.groups:
            for _ in range(200):
                try:
                    pids = [int(x) for x in (group / "cgroup.procs").read_text().split()]
                except OSError:
                    break
                if not pids:
                    with contextlib.suppress(OSError):
                        group.rmdir()
                    break
                for pid in pids:
                    with contextlib.suppress(OSError):
                        os.kill(pid, signal.SIGKILL)
                _reap(pids)
                time.sleep(0.005)
        self.groups = [g for g in self.groups if g.exists()]


def _reap(pids: Sequence[int]) -> None:
    for pid in pids:
        with contextlib.suppress(ChildProcessError, OSError):
            os.waitpid(pid, os.WNOHANG)


# ----------------------------------------------------------------------------- limits

def _user_processes() -> int:
    """How many processes this user has now (RLIMIT_NPROC counts them all)."""
    uid = os.getuid()
    n = 0
    with contextlib.suppress(OSError):
        for name in os.listdir("/proc"):
            if name.isdigit():
                with contextlib.suppress(OSError):
                    n += os.stat(f"/proc/{name}").st_uid == uid
    return n


def _preexec(limits: Limits, nproc: int | None, groups: list[Path]
             ) -> Callable[[], None]:
    """What the child runs before ``exec``: join the cgroups, set the limits."""
    procs = [str(g / "cgroup.procs") for g in groups]

    def in_child() -> None:
        me = str(os.getpid()).encode()
        for path in procs:
            fd = os.open(path, os.O_WRONLY)
            try:
                os.write(fd, me)
            finally:
                os.close(fd)
        resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu, limits.cpu + 1))
        resource.setrlimit(resource.RLIMIT_NOFILE, (limits.files, limits.files))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        resource.setrlimit(resource.RLIMIT_FSIZE, (limits.fsize, limits.fsize))
        if nproc is not None:
            resource.setrlimit(resource.RLIMIT_NPROC, (nproc, nproc))
    return in_child


# ----------------------------------------------------------------------------- bwrap

@functools.cache
def _bwrap_problem() -> str:
    """Why bubblewrap cannot sandbox here ("" when it can): missing, or no namespaces."""
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return "'bwrap' is not on the PATH (Debian: apt-get install bubblewrap)"
    try:
        run = subprocess.run([bwrap, "--ro-bind", "/", "/", "--unshare-net", "--unshare-pid",
                              "--die-with-parent", "true"], capture_output=True, timeout=10,
                             check=False)
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"bwrap does not run: {e}"
    if run.returncode != 0:
        why = run.stderr.decode(errors="replace").strip().splitlines()
        return ("bwrap cannot create namespaces here (no user namespaces?): "
                + (why[-1] if why else f"exit code {run.returncode}"))
    return ""


def _python_paths() -> list[Path]:
    """The folders of the Python the arbiter runs on (the bundled engines run on it):
    its prefixes and every folder of its ``sys.path``."""
    out: list[Path] = []
    for p in (sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix,
              os.path.dirname(os.path.realpath(sys.executable)), *sys.path):
        if p and os.path.isdir(p):
            path = Path(p).resolve()
            if path not in out:
                out.append(path)
    return out


_SYSTEM = ("/usr", "/etc", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")


def _bwrap_argv(argv: list[str], folder: Path, limits: Limits) -> list[str]:
    """bubblewrap's command line that runs ``argv`` in ``folder`` (see the module)."""
    bwrap = shutil.which("bwrap") or "bwrap"
    out = [bwrap, "--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts",
           "--die-with-parent", "--proc", "/proc", "--dev", "/dev"]
    for path in _SYSTEM:
        if os.path.islink(path):
            out += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            out += ["--ro-bind", path, path]
    out += ["--size", str(limits.tmp), "--tmpfs", "/tmp"]
    seen: list[Path] = []
    binds = [*sorted(_python_paths(), key=lambda p: len(p.parts)), folder]
    # the program's folder: the first command word that names a file (``./bot``, or the
    # script of ``python3 bots/a/bot.py``); the arguments after it may name anything
    for i, word in enumerate(argv):
        candidate = word if os.path.isabs(word) else os.path.join(folder, word)
        if ("/" in word or i == 0) and os.path.isfile(candidate):
            parent = Path(candidate).resolve().parent
            if not _under(parent, [*binds, *map(Path, _SYSTEM)]):
                binds.append(parent)
            elif i == 0:
                continue  # an interpreter: the script follows
            break
    for bind in binds:
        if bind == Path("/") or _under(bind, [*seen, *map(Path, _SYSTEM)]):
            continue  # bound already, with the system or a folder around it
        seen.append(bind)
        out += ["--ro-bind", str(bind), str(bind)]
    out += ["--chdir", str(folder), "--setenv", "HOME", "/tmp", "--setenv", "TMPDIR", "/tmp",
            "--", *argv]
    return out


def _under(path: Path, folders: Iterable[Path]) -> bool:
    """Whether ``path`` is one of ``folders`` or inside one."""
    return any(path == f or f in path.parents for f in folders)


# ----------------------------------------------------------------------------- cgroups

@functools.cache
def cgroup_root() -> tuple[int, dict[str, Path]]:
    """The cgroup version here (1 or 2) and, by controller, the folder under which the
    engines' cgroups are made: this process's own cgroup (its delegated part of the tree).
    SandboxError when cgroups cannot be used."""
    try:
        own = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        raise SandboxError("sandbox cgroup: no /proc/self/cgroup (not Linux?)") from None
    paths: dict[str, str] = {}
    for line in own:
        _, controllers, path = line.split(":", 2)
        for c in controllers.split(","):
            paths[c] = path
    if (CGROUP_FS / "memory" / "memory.limit_in_bytes").exists():
        out = {}
        for c in ("memory", "pids", "cpu"):
            base = CGROUP_FS / c
            if not base.is_dir():
                raise SandboxError(f"sandbox cgroup: cgroup v1 has no {c} controller "
                                   f"({base} missing)")
            mine = base / paths.get(c, "/").lstrip("/")
            out[c] = mine if mine.is_dir() else base
        return 1, out
    if (CGROUP_FS / "cgroup.controllers").exists():
        mine = CGROUP_FS / paths.get("", "/").lstrip("/")
        return 2, {"": mine}
    raise SandboxError(f"sandbox cgroup: no cgroup file system at {CGROUP_FS}")


def _cgroups() -> tuple[int, dict[str, Path]]:
    version, roots = cgroup_root()
    for path in roots.values():
        if not os.access(path, os.W_OK):
            raise SandboxError(f"sandbox cgroup: cannot create cgroups in {path} (needs root "
                               "or a delegated cgroup)")
    if version == 2:
        root = roots[""]
        enabled = (root / "cgroup.subtree_control").read_text().split()
        missing = [c for c in ("memory", "pids", "cpu") if c not in enabled]
        if missing:
            try:
                (root / "cgroup.subtree_control").write_text(
                    " ".join(f"+{c}" for c in missing))
            except OSError as e:
                raise SandboxError(f"sandbox cgroup: cannot enable {' '.join(missing)} in "
                                   f"{root}/cgroup.subtree_control ({e.strerror}; cgroup v2 "
                                   "needs a delegated cgroup without processes)") from None
    return version, roots


@functools.cache
def _sweep(root: Path) -> None:
    """Remove the empty cgroups an arbiter that died (SIGKILL) left in ``root``: named
    ``sneferu-PID-...`` with PID no longer running (once per folder and process)."""
    with contextlib.suppress(OSError):
        for group in root.glob("sneferu-*-*"):
            pid = group.name.split("-")[1]
            if pid.isdigit() and not os.path.exists(f"/proc/{pid}"):
                with contextlib.suppress(OSError):
                    group.rmdir()  # refused while a process is still in it


def _make_cgroups(limits: Limits) -> tuple[int, list[Path]]:
    """New cgroups for one engine, with its limits: (version, their folders)."""
    version, roots = _cgroups()
    for root in roots.values():
        _sweep(root)
    name = f"sneferu-{os.getpid()}-{uuid.uuid4().hex[:12]}"
    made: list[Path] = []
    try:
        if version == 1:
            mem, pids, cpu = (roots[c] / name for c in ("memory", "pids", "cpu"))
            for g in (mem, pids, cpu):
                g.mkdir()
                made.append(g)
            (mem / "memory.limit_in_bytes").write_text(str(limits.memory))
            swap = mem / "memory.memsw.limit_in_bytes"
            if swap.exists():
                with contextlib.suppress(OSError):
                    swap.write_text(str(limits.memory))
            (pids / "pids.max").write_text(str(limits.pids))
            (cpu / "cpu.shares").write_text(str(limits.shares))
        else:
            g = roots[""] / name
            g.mkdir()
            made.append(g)
            (g / "memory.max").write_text(str(limits.memory))
            with contextlib.suppress(OSError):
                (g / "memory.swap.max").write_text("0")
            (g / "pids.max").write_text(str(limits.pids))
            (g / "cpu.weight").write_text(str(max(1, min(10000, limits.shares * 100 // 1024))))
    except OSError as e:
        for g in made:
            with contextlib.suppress(OSError):
                g.rmdir()
        what = errno.errorcode.get(e.errno or 0, "")
        raise SandboxError(f"sandbox cgroup: cannot set up {e.filename}: {e.strerror or what}"
                           ) from None
    return version, made


def _read_counter(path: Path, key: str) -> int:
    """The number after ``key`` in a flat-keyed cgroup file (0 when absent)."""
    with contextlib.suppress(OSError, ValueError):
        for line in path.read_text().splitlines():
            k, _, v = line.partition(" ")
            if k == key:
                return int(v)
    return 0


def _oom_kills(groups: list[Path], version: int) -> int | None:
    """The OOM killer's kills in the engine's memory cgroup, or None when the kernel does
    not count them (cgroup v1 before Linux 4.13)."""
    name = "memory.oom_control" if version == 1 else "memory.events"
    for g in groups:
        with contextlib.suppress(OSError):
            if "oom_kill " in (g / name).read_text():
                return _read_counter(g / name, "oom_kill")
    return None


def _pids_hit(groups: list[Path], version: int) -> int:
    return sum(_read_counter(g / "pids.events", "max") for g in groups
               if (g / "pids.events").exists())
