"""The files reagree reads and writes: regular files only, reads bounded, writes atomic.

What it decides:

- **Inputs are regular files.** A path to read that is a folder, a device, a FIFO or a
  socket is refused, naming what it is, before any byte is read: ``/dev/zero`` reads
  forever, a FIFO blocks until something writes to it. A symbolic link to a regular file
  is read (links are how large tables are kept elsewhere). ``open_regular`` opens without
  blocking and checks the file it opened, so a path swapped for a FIFO after a check
  cannot block either.
- **Reads are bounded.** ``read_bounded`` reads at most ``limit`` bytes and refuses a
  longer file, saying how to raise the bound.
- **Outputs replace only a regular file.** An output path that is a symbolic link (even a
  dangling one), a device, a FIFO, a socket or a folder is refused in one line, before
  anything is written: an atomic write renames over what is there, which would replace
  ``/dev/null`` itself when run as root, or a link with a file. Links are refused, not
  followed: the user names the real path (following one would write where the command
  line did not say).
- **Writes are atomic.** Content goes to a temporary file ``.<name>.part-<random>`` in the
  target's folder (created if missing), made readable under the umask, and is renamed
  over the target only when complete, after the target is checked again; on any failure
  the temporary file is removed and the target is as it was. A write that fails (a full
  disk) names the file it was writing. Every file the library and the command line write
  goes through here (tables, text, figures, fetched files).
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path
from typing import BinaryIO, Iterator

__all__ = [
    "KINDS",
    "MAX_TABLE_BYTES",
    "UnsafePath",
    "atomic_output",
    "check_output",
    "human_bytes",
    "kind_of",
    "move_into_place",
    "naming_the_file",
    "not_regular",
    "open_regular",
    "read_bounded",
    "readable_mode",
    "temporary_beside",
    "write_atomic",
]

#: The most bytes reagree reads of one annotation table unless told otherwise: the table is
#: held in memory, several times over while it is parsed.
MAX_TABLE_BYTES = 2 << 30

KINDS = {
    stat.S_IFREG: "a regular file",
    stat.S_IFDIR: "a folder",
    stat.S_IFLNK: "a symbolic link",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFIFO: "a FIFO (named pipe)",
    stat.S_IFSOCK: "a socket",
}


class UnsafePath(ValueError):
    """A path reagree will not read from or write to; the message says what it is."""


def _kind(mode: int) -> str:
    return KINDS.get(stat.S_IFMT(mode), "not a regular file")


def kind_of(path: str | os.PathLike) -> str | None:
    """What ``path`` itself is ("a folder", "a symbolic link", "a FIFO (named pipe)", ...),
    None where nothing is."""
    try:
        return _kind(os.lstat(path).st_mode)
    except FileNotFoundError:
        return None


def not_regular(path: str | os.PathLike, follow: bool = True) -> str | None:
    """None for a regular file (or, with ``follow``, a link to one); else what the path
    is, for a message: "does not exist", "is a folder, not a regular file", ..."""
    try:
        mode = (os.stat if follow else os.lstat)(path).st_mode
    except FileNotFoundError:
        return "does not exist"
    except OSError as error:
        return f"cannot be read ({error.strerror})"
    return None if stat.S_ISREG(mode) else f"is {_kind(mode)}, not a regular file"


def open_regular(path: str | os.PathLike, what: str = "reagree reads only regular files") -> BinaryIO:
    """``path`` opened for reading in binary, refused (UnsafePath, naming what it is and
    ``what``) unless it is a regular file. Opened without blocking, then checked: a FIFO
    never holds the caller."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise UnsafePath(f"{path} is {_kind(mode)}, not a regular file: {what}")
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_bounded(
    path: str | os.PathLike, limit: int, how_to_raise: str, what: str = "reagree reads only regular files"
) -> bytes:
    """The bytes of the regular file ``path``; UnsafePath for anything else and for a file
    of more than ``limit`` bytes (the message ends with ``how_to_raise``)."""
    with open_regular(path, what) as handle:
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise UnsafePath(
            f"{path} is larger than {human_bytes(limit)}, the most reagree reads of one table; {how_to_raise}"
        )
    return data


def human_bytes(n: int) -> str:
    """A byte count as "2 GiB", "512 KiB", "1.5 MiB" or "100 B"."""
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            return f"{n / size:.3g} {unit}"
    return f"{n} B"


# ------------------------------------------------------------------------- writing


def check_output(path: str | os.PathLike) -> None:
    """Refuse (UnsafePath) an output path that exists and is not a regular file."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    if stat.S_ISREG(mode):
        return
    what = _kind(mode) + (f" to {os.readlink(path)}" if stat.S_ISLNK(mode) else "")
    raise UnsafePath(
        f"{path} is {what}: reagree writes an output only to a regular file or a new path, never over "
        "a link, a device, a FIFO, a socket or a folder; nothing was written"
    )


def readable_mode() -> int:
    """The mode an ordinary new file gets under the current umask (0o644 under 022).
    Temporary files are created 0600; renamed into place they would stay unreadable to
    others, so they get this mode before the rename."""
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


def naming_the_file(path: Path, error: OSError) -> OSError:
    """A write error that names the file being written (a failed ``write`` does not: "No
    space left on device" alone leaves a user guessing which disk)."""
    if error.filename:
        return error
    return OSError(error.errno, f"could not write {path}: {error.strerror or error}")


def temporary_beside(path: str | os.PathLike, text: bool = False):
    """An open temporary file ``.<name>.part-<random>`` in ``path``'s folder (created if
    missing), after checking ``path`` (``check_output``). The caller writes it, then
    ``move_into_place``, or removes it on failure."""
    path = Path(path)
    check_output(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    options = {"mode": "w", "encoding": "utf-8", "newline": ""} if text else {"mode": "wb"}
    return tempfile.NamedTemporaryFile(dir=path.parent, prefix=f".{path.name}.part-", delete=False, **options)


def move_into_place(temporary: str | os.PathLike, path: str | os.PathLike) -> None:
    """Rename the finished ``temporary`` over ``path``, readable under the umask, after
    checking ``path`` again (it may have become a link since the write began)."""
    os.chmod(temporary, readable_mode())
    check_output(path)
    os.replace(temporary, path)


@contextlib.contextmanager
def atomic_output(path: str | os.PathLike, text: bool = False) -> Iterator:
    """Write ``path`` atomically: yields the temporary file's handle; on a clean exit the
    file is renamed over ``path``, on any exception removed (``path`` untouched)."""
    path = Path(path)
    handle = temporary_beside(path, text)
    try:
        try:
            with handle:
                yield handle
        except OSError as error:
            raise naming_the_file(path, error) from error
        move_into_place(handle.name, path)
    except BaseException:
        Path(handle.name).unlink(missing_ok=True)
        raise


def write_atomic(path: str | os.PathLike, content: str | bytes) -> None:
    """``content`` (text as UTF-8) written to ``path`` through ``atomic_output``."""
    with atomic_output(path, text=isinstance(content, str)) as handle:
        handle.write(content)
