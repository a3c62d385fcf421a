"""Which files the server may read: none, or regular files inside one folder, bounded.

``sneferu serve`` reads files for ``verify``, ``load-record`` and ``edition=`` only when it
was started with ``--files DIR`` (SPEC.md, section 10.7). A path is taken relative to that
folder (an absolute one as it is) and resolved, symbolic links and ``..`` included; what
it names must lie inside the folder, be a regular file (no FIFO, device or folder) and
hold at most ``max_bytes`` bytes. The file is then opened one folder at a time from the
folder's descriptor without following links, so that a folder swapped for a link between
the check and the open is refused. Errors name the path as the client gave it and never
quote what a file holds.

>>> try:
...     FileAccess(None).read("games.rec", "record")
... except ValueError as e:
...     print(e)
games.rec: the server reads no files (start it with --files DIR)
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from .requests import RequestError

MAX_FILE = 16 << 20
"""The largest file the server reads unless told otherwise: 16 MiB."""


class FileAccess:
    """The folder the server may read files from (None: no file at all), and the size limit."""

    def __init__(self, folder: str | Path | None, max_bytes: int = MAX_FILE) -> None:
        self.folder = None if folder is None else Path(folder).resolve(strict=True)
        self.max_bytes = max_bytes

    def read(self, name: str, what: str) -> bytes:
        """The bytes of the file ``name`` (a ``what``: record, edition); RequestError when
        it may not or cannot be read."""
        if self.folder is None:
            raise RequestError(f"{name}: the server reads no files (start it with --files DIR)")
        try:  # not strict: whether a file outside exists is none of the client's business
            path = (self.folder / name).resolve()
        except RuntimeError:  # a loop of symbolic links
            raise RequestError(f"{name}: cannot read the {what}: a loop of symbolic links"
                               ) from None
        except OSError as e:  # a folder changed while the path was resolved
            raise RequestError(f"{name}: cannot read the {what}: {e.strerror}") from None
        if not path.is_relative_to(self.folder):
            raise RequestError(f"{name}: outside the folder the server reads (--files)")
        try:
            fd = self._open(path.relative_to(self.folder).parts)
        except OSError as e:
            raise RequestError(f"{name}: cannot read the {what}: {e.strerror}") from None
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                raise RequestError(f"{name}: not a regular file")
            too_big = RequestError(f"{name}: larger than {self.max_bytes} bytes (the "
                                   "server's --max-file)")
            if info.st_size > self.max_bytes:
                raise too_big
            chunks: list[bytes] = []
            size = 0
            while size <= self.max_bytes:  # the file may grow while it is read
                chunk = os.read(fd, min(1 << 20, self.max_bytes + 1 - size))
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
            if size > self.max_bytes:
                raise too_big
            return b"".join(chunks)
        except OSError as e:
            raise RequestError(f"{name}: cannot read the {what}: {e.strerror}") from None
        finally:
            os.close(fd)

    def _open(self, parts: tuple[str, ...]) -> int:
        """Open the file at ``parts`` (a resolved path inside the folder: no link, no
        ``..``) one component at a time, each relative to its folder's descriptor and
        following no symbolic link: a folder swapped for a link after :meth:`read` resolved
        the path is refused (ELOOP, ENOTDIR), not followed outside the folder."""
        assert self.folder is not None
        nofollow = getattr(os, "O_NOFOLLOW", 0)
        at = os.open(self.folder, os.O_RDONLY | os.O_DIRECTORY | nofollow)
        try:
            for part in parts[:-1]:
                inner = os.open(part, os.O_RDONLY | os.O_DIRECTORY | nofollow, dir_fd=at)
                os.close(at)
                at = inner
            # O_NONBLOCK: a FIFO opens at once (and is refused)
            return os.open(parts[-1] if parts else ".",
                           os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | nofollow, dir_fd=at)
        finally:
            os.close(at)
