"""One process per run directory: an OS file lock on ``run.lock``, held for the whole run.

Two runs on one directory would mix their responses in one store (different configs both pass
the "made with a different config" check when neither has written its manifest yet) or ask
every model twice (the same config; a paid API bills twice). So a run takes
``fcntl.flock(LOCK_EX | LOCK_NB)`` on ``<run_dir>/run.lock`` before it writes anything and holds
it to the end. The kernel releases the lock when the process exits in any way, ``kill -9``
included, so a crashed run never leaves a stale lock behind. The file itself stays (it holds
the last holder's PID, for the message) and is never deleted: deleting a lock file while
another process has it open would let two processes each lock a different file.

:func:`check_free` is the read-only probe a pre-flight check uses (it creates nothing);
:class:`RunLock` takes the lock. Both refuse with :class:`~halluforge.errors.RunLockedError`
naming the holder's PID. POSIX only (``fcntl``), like the rest of the run machinery.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import time
from pathlib import Path
from types import TracebackType

from halluforge.errors import RunLockedError

LOCK_FILE = "run.lock"
#: how often, and how long apart, the PID of a holder that has just taken the lock is read again
_PID_READS = 20
_PID_PAUSE_S = 0.05


def _read_pid(fd: int) -> int | None:
    """The PID written in an open lock file (None while the holder has not written it yet)."""
    for attempt in range(_PID_READS):
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
        if text.isdigit():
            return int(text)
        if attempt + 1 < _PID_READS:
            time.sleep(_PID_PAUSE_S)  # the holder locks first, then writes its PID
    return None


def _locked(run_dir: Path, pid: int | None) -> RunLockedError:
    who = f"PID {pid}" if pid is not None else "a PID it has not written yet"
    stop = f" (kill {pid})" if pid is not None else ""
    return RunLockedError(
        f"run directory {run_dir} is in use by another halluforge process ({who})",
        pid=pid,
        hint=f"wait for that run to finish or stop it{stop}; to run beside it, pass --new or "
        "choose another --run-id",
    )


def check_free(run_dir: str | Path) -> None:
    """Raise :class:`RunLockedError` when another process holds ``run_dir``'s lock; creates nothing."""
    path = Path(run_dir) / LOCK_FILE
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except FileNotFoundError:
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            raise _locked(Path(run_dir), _read_pid(fd)) from None
        fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


class RunLock:
    """The exclusive lock of one run directory (creates the directory and its lock file).

    ``created`` is the top-most folder this lock had to create (the run directory or an
    output folder above it), so a run refused before its first stage can remove what it made.
    """

    def __init__(self, run_dir: str | Path) -> None:
        self.run_dir = Path(run_dir)
        self.path = self.run_dir / LOCK_FILE
        self.created: Path | None = None
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        """True between :meth:`acquire` and :meth:`release`."""
        return self._fd is not None

    def acquire(self) -> RunLock:
        """Take the lock now or raise :class:`RunLockedError` naming the holder; never waits."""
        missing = self.run_dir
        while not missing.parent.exists() and missing.parent != missing:
            missing = missing.parent
        self.created = None if self.run_dir.exists() else missing
        self.run_dir.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            pid = _read_pid(fd)
            os.close(fd)
            raise _locked(self.run_dir, pid) from None
        except BaseException:
            os.close(fd)
            raise
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self._fd = fd
        return self

    def release(self) -> None:
        """Let the lock go (closing the file releases it); the file stays."""
        if self._fd is not None:
            fd, self._fd = self._fd, None
            os.close(fd)

    def discard(self) -> None:
        """Release, and remove the folders this lock created (a run refused before it began)."""
        self.release()
        if self.created is not None and self.created.is_dir():
            shutil.rmtree(self.created, ignore_errors=True)
        self.created = None

    def __enter__(self) -> RunLock:
        return self.acquire()

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.release()


__all__ = ["LOCK_FILE", "RunLock", "check_free"]
