"""An engine's process: its own process group, line I/O with deadlines, stderr drained.

Every wait is bounded by a deadline (``time.monotonic()`` seconds): reading and writing go
through non-blocking pipes and a selector, so an engine that hangs, floods or stops reading
can never hang the arbiter. Whatever goes wrong becomes an :class:`EngineFault` whose kind
is one of the record's fault kinds (:class:`sneferu_cli.record.Fault`).
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import io
import os
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import IO, cast

from mypy_extensions import mypyc_attr

from ..protocol.messages import LINE_LIMIT
from .sandbox import Confined, Sandbox, SandboxError

__all__ = ["EngineFault", "EngineProcess", "LineChannel", "StderrSink", "TrafficLog",
           "adopt_orphans", "open_logs", "process_parents", "take_line"]

EXIT_GRACE = 0.5
"""Seconds to wait for the exit status after an engine closes its output."""

STDERR_CAP = 16 * 1024 * 1024
"""Bytes of one engine's stderr written to the log; the rest is drained and dropped."""

STDERR_CUT = b"[stderr cut: over the log limit]\n"
"""The line that ends an engine's stderr log when it reached ``STDERR_CAP``."""


PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36

_live: set[int] = set()  # the pids of the engines started and not yet killed
_adopting = False  # adopt_orphans() was called: this process is a child subreaper


def _prctl() -> Callable[..., int] | None:
    """libc's prctl (Linux), or None."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        fn: Callable[..., int] = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):  # pragma: no cover - a libc without prctl
        return None
    return fn


def adopt_orphans() -> bool:
    """Make this process a child subreaper (Linux): a process an engine leaves behind when
    it exits (even one that left the engine's process group with ``setsid``) becomes a
    child of this process instead of init's, and is killed with the next engine killed.

    For a program whose only children are engines (``sneferu play``): every child that is
    not a running engine is then taken for a stray. Returns False where it is not possible.
    """
    global _adopting
    prctl = _prctl()
    if prctl is None or prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        return False
    _adopting = True
    return True


def _die_with_this_thread() -> Callable[[], None] | None:
    """For ``preexec_fn``: the engine gets SIGKILL when the arbiter dies, even by SIGKILL
    (Linux ``PR_SET_PDEATHSIG``). The signal comes when the *thread* that started the
    engine ends, so only engines started by the main thread get it."""
    prctl = _prctl()
    if prctl is None or threading.current_thread() is not threading.main_thread():
        return None
    parent = os.getpid()

    def in_child() -> None:
        prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent:  # the arbiter died before the line above
            os._exit(1)
    return in_child


def _in_child(*steps: Callable[[], None] | None) -> Callable[[], None] | None:
    """One ``preexec_fn`` running each of ``steps`` given, in order (None: none)."""
    todo = [s for s in steps if s is not None]
    if not todo:
        return None
    if len(todo) == 1:
        return todo[0]

    def in_child() -> None:
        for step in todo:
            step()
    return in_child


def process_parents() -> dict[int, int]:
    """Every process's parent, from /proc (empty where there is none). Read with bare
    system calls: a file object costs four more a process, and a machine has hundreds."""
    out = {}
    with contextlib.suppress(OSError):
        for name in os.listdir("/proc"):
            if name.isdigit():
                try:
                    fd = os.open(f"/proc/{name}/stat", os.O_RDONLY)
                except OSError:
                    continue  # gone meanwhile
                try:
                    stat = os.read(fd, 4096)
                except OSError:
                    stat = b""  # gone meanwhile
                finally:
                    os.close(fd)
                if stat:
                    out[int(name)] = int(stat.rsplit(b")", 1)[1].split()[1])
    return out


def _descendants(pid: int, parents: dict[int, int]) -> list[int]:
    """The processes below ``pid`` (children, theirs, ...), found in ``parents``."""
    below: dict[int, list[int]] = {}
    for child, parent in parents.items():
        below.setdefault(parent, []).append(child)
    out, todo = [], [pid]
    while todo:
        for child in below.get(todo.pop(), ()):
            out.append(child)
            todo.append(child)
    return out


def _started(pid: int) -> bytes | None:
    """When process ``pid`` started (clock ticks since boot, from /proc), None if gone: a
    pid noted earlier is the same process only while this is unchanged."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[19]
    except (OSError, IndexError):
        return None


def _kill_all(pids: Sequence[int]) -> None:
    """SIGKILL each of ``pids``; reap those that are this process's children (strays
    adopted as subreaper), waiting at most 1 s in all."""
    for pid in pids:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    end = time.monotonic() + 1.0
    for pid in pids:
        while True:
            try:
                done, _ = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                break  # not our child (its parent reaps it), or reaped
            if done or time.monotonic() > end:
                break
            time.sleep(0.005)


class EngineFault(Exception):
    """An engine broke the protocol or its sandbox's limits: ``kind`` (crash, eof,
    timeout, handshake, malformed, illegal, flood, memory, cpu, processes; disconnect for
    an engine that connects from elsewhere) and a one-line
    ``detail``."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail


class TrafficLog:
    """The raw protocol traffic of every engine, one line each, with the time since ``t0``
    (``time.monotonic()``; default: now).

    ``0.012345 2> go movetime 200`` (to seat 2), ``0.013001 2< move 1.1 TG@1.1`` (from it),
    ``0.500000 2! timeout: ...`` (what the arbiter concluded).
    """

    def __init__(self, out: IO[str], t0: float | None = None) -> None:
        self.out = out
        self.t0 = time.monotonic() if t0 is None else t0

    def write(self, label: str, direction: str, line: str) -> None:
        self.out.write(f"{time.monotonic() - self.t0:.6f} {label}{direction} {line}\n")


class StderrSink:
    """Where engines' stderr goes: one file per engine in a folder, or one shared file
    with each line prefixed ``[label]``; None keeps only the tail for fault reports.

    ``path`` is a folder when it is one, or when ``folder`` is true: then it is created
    (with its parents) if missing. Raises OSError when it cannot be created or opened.
    In a folder, ``per_seat`` names the files ``LABEL-NAME.log`` and copies the stderr as
    it comes; otherwise (several processes sharing the folder, as a tournament's workers
    do) the file is ``NAME.log`` and each line is prefixed ``[label]`` as in a shared file.
    Files are opened for appending and written whole lines at a time (one ``write`` each),
    so the lines of several processes never interleave within a line.
    """

    def __init__(self, path: Path | None, *, folder: bool = False,
                 per_seat: bool = True) -> None:
        self.path = path
        self.per_seat = per_seat
        self.lock = threading.Lock()
        self.shared: IO[bytes] | None = None
        if path is not None and folder:
            path.mkdir(parents=True, exist_ok=True)
        elif path is not None and not path.is_dir():
            self.shared = path.open("ab", buffering=0)

    def open(self, label: str, name: str) -> tuple[IO[bytes] | None, bool]:
        """The file for one engine's stderr (None: none), and whether its lines are
        prefixed with the label."""
        if self.path is None or self.shared is not None:
            return self.shared, True
        safe = "".join(c if c.isalnum() or c in "-_." else "_"
                       for c in (f"{label}-{name}" if self.per_seat else name))
        return (self.path / f"{safe}.log").open("ab", buffering=0), not self.per_seat

    def close(self) -> None:
        if self.shared is not None:
            self.shared.close()


@contextlib.contextmanager
def open_logs(log_path: str | Path | None, stderr_path: str | Path | None, *,
              append: bool = False, t0: float | None = None, per_seat: bool = True
              ) -> Iterator[tuple[TrafficLog | None, StderrSink | None]]:
    """The traffic log (``--log FILE``) and the engines' stderr (``--engine-stderr
    DIR|FILE``) for as long as the block runs; None for those not given. The traffic log
    is written line by line (one ``write`` each) to a file emptied first, or appended to
    with ``append`` (several processes may then share it). Raises OSError."""
    log: IO[str] | None = None
    sink = None
    try:
        if log_path is not None:
            log = open(log_path, "a" if append else "w", encoding="utf-8",  # noqa: SIM115
                       buffering=1)
        if stderr_path is not None:
            # DIR/ is a folder, created when missing
            sink = StderrSink(Path(stderr_path), per_seat=per_seat,
                              folder=str(stderr_path).endswith(os.sep))
        yield (TrafficLog(log, t0) if log is not None else None), sink
    finally:
        if log is not None:
            log.close()
        if sink is not None:
            sink.close()


@mypyc_attr(allow_interpreted_subclasses=True)  # remote.py's Connection, not compiled
class LineChannel:
    """An engine's lines, whatever carries them (a pipe, a connection): what a subclass
    gives (``readline`` with a deadline, the buffer ``_buf`` of what came and is not taken
    yet, ``_poll_out`` to see whether more came), and what follows from it."""

    label: str
    traffic: TrafficLog | None
    _buf: bytearray
    _poll_out: select.poll

    def readline(self, deadline: float) -> str:
        """The next line (without LF or CR), waiting until ``deadline`` at most."""
        raise NotImplementedError

    def line_now(self) -> str | None:
        """The next line if one has come (without LF or CR), else None: reads only what
        the engine has written, without waiting."""
        if b"\n" not in self._buf and not self._poll_out.poll(0):
            return None  # the usual case, without a clock or an exception
        try:
            return self.readline(0.0)
        except EngineFault as f:
            if f.kind != "timeout":
                raise
            return None  # the start of a line only

    def unread_lines(self) -> list[str]:
        """The lines the engine has sent so far that were not read yet (does not wait, and
        stops after 0.1 s for an engine that never stops writing)."""
        lines: list[str] = []
        end = 0.0
        while (line := self.line_now()) is not None:
            lines.append(line)
            if not end:
                end = time.monotonic() + 0.1
            elif time.monotonic() > end:
                break
        return lines

    def note(self, text: str) -> None:
        """Write the arbiter's conclusion about this engine to the traffic log."""
        if self.traffic:
            self.traffic.write(self.label, "!", text)


class EngineProcess(LineChannel):
    """A started engine program. ``label`` names it in logs (the seat number in a game)."""

    def __init__(self, argv: Sequence[str], *, label: str, name: str,
                 traffic: TrafficLog | None = None, stderr: StderrSink | None = None,
                 cwd: str | Path | None = None, sandbox: Sandbox | None = None) -> None:
        self.argv = list(argv)
        self.label = label
        self.traffic = traffic
        self._buf = bytearray()
        self._tail = bytearray()
        self._killed = False
        self._descendants: list[tuple[int, bytes | None]] = []
        # Inside its sandbox (SPEC 7.10): the command bubblewrap runs, the cgroups it joins
        # and the limits set in the child before exec.
        try:
            self.confined: Confined = (sandbox or Sandbox()).confine(self.argv, cwd)
        except SandboxError as e:
            raise EngineFault("handshake", str(e)) from None
        try:
            self.proc = subprocess.Popen(self.confined.argv, stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                         start_new_session=True, bufsize=0, cwd=cwd,
                                         preexec_fn=_in_child(_die_with_this_thread(),
                                                              self.confined.preexec))
        except (OSError, subprocess.SubprocessError) as e:
            self.confined.cleanup()
            raise EngineFault("handshake", f"cannot run {self.argv[0]!r}: "
                                           f"{getattr(e, 'strerror', None) or e}") from None
        _live.add(self.proc.pid)
        assert self.proc.stdin and self.proc.stdout and self.proc.stderr
        self._in = self.proc.stdin.fileno()
        self._out = self.proc.stdout.fileno()
        # unbuffered (bufsize=0): a FileIO on self._out, whose read gives None when nothing
        # has come (IO[bytes] says bytes, which compiled code would check)
        self._output = cast(io.FileIO, self.proc.stdout)
        os.set_blocking(self._in, False)
        os.set_blocking(self._out, False)
        # poll objects, not selectors: a turn waits once for the answer and checks once for
        # unread lines, and selectors' bookkeeping cost more than the system calls.
        self._poll_out = select.poll()
        self._poll_out.register(self._out, select.POLLIN)
        # The process's exit is watched too, not only the end of its output: a child it
        # left behind may hold the output open (Linux pidfd; elsewhere only the output).
        self._exit_fd: int | None = None
        with contextlib.suppress(AttributeError, OSError):
            self._exit_fd = os.pidfd_open(self.proc.pid)
            self._poll_out.register(self._exit_fd, select.POLLIN)
        # A write that does not fit waits for room in the input and reads the output
        # meanwhile: an engine that stops reading while it writes cannot block the arbiter.
        self._poll_in = select.poll()
        self._poll_in.register(self._in, select.POLLOUT)
        self._poll_in.register(self._out, select.POLLIN)
        self._drain = threading.Thread(target=self._drain_stderr, name=f"stderr {label}",
                                       args=(stderr, name), daemon=True)
        self._drain.start()

    # ------------------------------------------------------------------ lines

    def send(self, deadline: float, *lines: str) -> None:
        """Write lines (LF added) in one go; the engine must take them before ``deadline``.

        While the engine does not take them, what it writes is read and kept for
        :meth:`readline` (so neither side's write blocks the other); more than
        ``LINE_LIMIT`` bytes of it before the engine takes any more is a ``flood``."""
        if self.traffic:
            for line in lines:
                self.traffic.write(self.label, ">", line)
        data = memoryview("\n".join((*lines, "")).encode())
        unread = 0  # bytes it wrote since it last took any
        while True:
            try:
                n = os.write(self._in, data)
            except BlockingIOError:
                n = 0
            except (BrokenPipeError, ConnectionResetError):
                raise self._gone("closed its input") from None
            if n == len(data):
                return
            if n:
                unread = 0
            data = data[n:]
            ready = self._poll_in.poll(_millis(deadline))
            if not ready:
                raise EngineFault("timeout", "stopped reading its input")
            if any(fd == self._out for fd, _ in ready):
                chunk = self._output.read(1 << 16)
                if chunk == b"":
                    raise self._gone("closed its output")
                if chunk:
                    self._buf += chunk
                    unread += len(chunk)
                    if unread > LINE_LIMIT:
                        raise EngineFault("flood", f"wrote over {LINE_LIMIT} bytes while not "
                                                   "reading its input")

    def readline(self, deadline: float) -> str:
        """The next line (without LF or CR), waiting until ``deadline`` at most."""
        buf = self._buf
        while True:
            line = take_line(buf)
            if line is not None:
                if self.traffic:
                    self.traffic.write(self.label, "<", line)
                return line
            # What the engine wrote is often there already (on one core it has answered by
            # now): read before waiting. The file object gives None, not an exception, when
            # nothing has come.
            chunk = self._output.read(1 << 16)
            if chunk is None:
                ready = self._poll_out.poll(_millis(deadline))
                if not ready:
                    raise EngineFault("timeout", "no line in time")
                if all(fd == self._exit_fd for fd, _ in ready):
                    raise self._gone("exited")  # its output is held open by another process
                continue
            if not chunk:
                raise self._gone("closed its output")
            buf += chunk

    def fds(self) -> list[int]:
        """The file descriptors that become readable when a line may have come: the
        engine's output, and its exit where it is watched."""
        return [self._out] + ([self._exit_fd] if self._exit_fd is not None else [])

    # ------------------------------------------------------------------ life

    def find_descendants(self, parents: dict[int, int] | None = None) -> None:
        """Note the processes below the engine now, to kill them with it: call it before
        the engine may exit (before ``quit``), as its children get new parents then.
        ``parents``: every process's parent read just before (by default, read here)."""
        self._descendants = [(p, _started(p)) for p in _descendants(
            self.proc.pid, process_parents() if parents is None else parents)]

    def stop(self, grace: float) -> None:
        """Wait up to ``grace`` seconds for the engine to exit (after quit), then kill its
        process group. Never raises."""
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=max(0.0, grace))
        self.kill()

    def kill(self) -> None:
        """Kill the whole process group at once and reap the engine. Never raises."""
        if self._killed:
            return
        self._killed = True
        pid = self.proc.pid
        # An engine that exited and was reaped (after quit) has no children left: they
        # have new parents, and its pid may be another process's by now.
        exited = self.proc.returncode is not None
        parents = {} if exited and not _adopting else process_parents()
        # Its descendants, found before the kill (after it they have new parents), also
        # those that left its process group; and as subreaper, the strays of engines gone.
        strays = [p for p, started in self._descendants if _started(p) == started]
        strays += [] if exited else _descendants(pid, parents)
        if _adopting:
            strays += [p for p, parent in parents.items()
                       if parent == os.getpid() and p not in _live]
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pid, signal.SIGKILL)
        _kill_all(strays)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=5)
        _live.discard(pid)
        self.confined.cleanup()  # what is left in its cgroups, and the cgroups
        if self._exit_fd is not None:
            os.close(self._exit_fd)
        for f in (self.proc.stdin, self.proc.stdout):
            if f is not None:
                with contextlib.suppress(OSError):
                    f.close()
        self._drain.join(timeout=1)

    def usage(self) -> tuple[float, int] | None:
        """The CPU seconds (user and system, its reaped children's included) the engine's
        processes have used since they started, and the sum of their peak resident memory
        in bytes (each one's ``VmHWM``, since :meth:`reset_peak`), read from /proc; None
        when the engine is no longer running (Linux only)."""
        if self.proc.returncode is not None:
            return None
        pids = [self.proc.pid, *_descendants(self.proc.pid, process_parents())]
        ticks = os.sysconf("SC_CLK_TCK")
        cpu = peak = 0
        for pid in pids:
            try:
                with open(f"/proc/{pid}/stat", "rb") as f:
                    fields = f.read().rsplit(b")", 1)[1].split()
                with open(f"/proc/{pid}/status", "rb") as f:
                    status = f.read()
            except (OSError, IndexError):
                if pid == self.proc.pid:
                    return None
                continue
            cpu += sum(int(x) for x in fields[11:15])  # utime stime cutime cstime
            for line in status.splitlines():
                if line.startswith(b"VmHWM:"):
                    peak += int(line.split()[1]) * 1024
        return cpu / ticks, peak

    def reset_peak(self) -> None:
        """Start the processes' peak resident memory afresh (``clear_refs`` 5). Never
        raises."""
        for pid in [self.proc.pid, *_descendants(self.proc.pid, process_parents())]:
            with contextlib.suppress(OSError), open(f"/proc/{pid}/clear_refs", "w") as f:
                f.write("5")

    def stderr_tail(self) -> str:
        """The last line the engine wrote to stderr (clipped), or ""."""
        lines = [x for x in bytes(self._tail).decode(errors="replace").splitlines() if x.strip()]
        return lines[-1].strip()[:200] if lines else ""

    def _gone(self, what: str) -> EngineFault:
        """The fault for a closed pipe: a crash when the process has exited, else eof."""
        try:
            code = self.proc.wait(timeout=EXIT_GRACE)
        except subprocess.TimeoutExpired:
            return EngineFault("eof", f"{what} but is still running")
        self._drain.join(timeout=EXIT_GRACE)
        number = self.confined.signal_of(code)
        if number is not None:
            try:
                sig = signal.Signals(number).name
            except ValueError:
                sig = str(number)
            how = f"killed by signal {sig}"
        else:
            how = f"exited with code {code}"
        tail = self.stderr_tail()
        named = self.confined.fault_kind(code)  # the sandbox stopped it
        if named is not None:
            return EngineFault(named[0], f"{named[1]}; {how}" + (f"; stderr: {tail}" if tail
                                                                   else ""))
        return EngineFault("crash", how + (f"; stderr: {tail}" if tail else ""))

    def _drain_stderr(self, sink: StderrSink | None, name: str) -> None:
        assert self.proc.stderr is not None
        fd = self.proc.stderr.fileno()
        out, prefixed = sink.open(self.label, name) if sink else (None, False)
        written = 0
        partial = b""  # the start of a line not ended yet, when lines are prefixed
        try:
            while True:
                try:
                    chunk = os.read(fd, 1 << 16)
                except OSError as e:
                    if e.errno == errno.EINTR:
                        continue
                    break
                if not chunk:
                    break
                self._tail += chunk
                del self._tail[:-4096]
                if out is None or written >= STDERR_CAP:
                    continue
                written += len(chunk)
                if written >= STDERR_CAP:
                    chunk += (b"" if chunk.endswith(b"\n") else b"\n") + STDERR_CUT
                if prefixed:
                    lines = (partial + chunk).split(b"\n")
                    partial = lines.pop()
                    chunk = b"".join(self._prefixed(x) for x in lines)
                _append(out, chunk, sink)
        finally:
            if out is not None:
                if partial:
                    _append(out, self._prefixed(partial), sink)
                if sink is None or out is not sink.shared:
                    out.close()
            with contextlib.suppress(OSError):
                self.proc.stderr.close()

    def _prefixed(self, line: bytes) -> bytes:
        """A line of stderr for a shared file: ``[label] `` before it (the label at the
        time: a tournament's engine plays one game after another)."""
        return f"[{self.label}] ".encode() + line + b"\n"


def take_line(buf: bytearray) -> str | None:
    """The first whole line of ``buf`` (without LF or CR), taken out of it; None when it
    holds no whole line yet. A ``flood`` over ``LINE_LIMIT`` bytes, ``malformed`` when the
    line is not UTF-8."""
    i = buf.find(b"\n")
    if i > LINE_LIMIT or (i < 0 and len(buf) > LINE_LIMIT):
        raise EngineFault("flood", f"a line longer than {LINE_LIMIT} bytes")
    if i < 0:
        return None
    raw = buf[:i]
    del buf[:i + 1]
    try:
        return raw.decode().rstrip("\r")
    except UnicodeDecodeError as e:
        raise EngineFault("malformed", f"a line that is not UTF-8 ({e.reason} at "
                                       f"byte {e.start})") from None


def _millis(deadline: float) -> float:
    """The milliseconds left until ``deadline`` (``time.monotonic()`` seconds), at least 0,
    as ``poll`` takes them."""
    return max(0.0, (deadline - time.monotonic()) * 1000)


def _append(out: IO[bytes], data: bytes, sink: StderrSink | None) -> None:
    """Write ``data`` to an unbuffered file opened for appending, one ``write`` when the
    system allows (the sink's lock keeps the engines of one process apart)."""
    assert sink is not None
    view = memoryview(data)
    with sink.lock:
        while view:
            view = view[out.write(view) or 0:]
