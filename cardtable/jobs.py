"""Background jobs kept as database rows and computed in ``nice``-d child processes.

A ``JobQueue`` serves one model whose rows carry ``status`` (queued, running,
done, failed), ``worker`` ("host:pid") and ``message``. One supervisor thread per
server process takes queued rows one at a time (claimed in the database, so two
processes never run the same row) and hands each to the queue's ``work``
function, which runs the CPU work in a child process (``run_child``): the
server's event loop, its requests and its bot searches never wait for it, and the
child runs at a lower priority than any of them. A child that runs past its
time is killed; it limits its own CPU time and memory (``setrlimit``:
``JOB_CPU_SECONDS``, ``JOB_MEMORY_MB``) and ends with a message naming the
setting past them. The rows are the queue: a row left running by a process that
has died is queued again when the supervisor starts (``requeue_dead``), so a
restart loses no job. The design statistics (``cardtable/dashboard/designjobs.py``),
the reviews (``cardtable/reviews/jobs.py``) and the playability checks of uploaded
RECYCLE games (``cardtable/dashboard/checkjobs.py``) are three such queues.
"""

from __future__ import annotations

import contextlib
import math
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import OperationalError, close_old_connections, connection

# The child runs ``python -m MODULE`` after asking Linux to kill it when the thread that started
# it ends (PR_SET_PDEATHSIG): a server that stops or dies leaves no job computing for nobody.
# If the parent died before the child asked, the child's parent is no longer the one named.
# ``run_child`` passes the job's limits in LIMITS_ENV ("CPU seconds,bytes"): the child sets them
# on itself (``setrlimit``) before it imports anything, and ends with CPU_EXIT or MEMORY_EXIT
# past them, which the parent turns into a message naming the setting.
GUARD = (
    "import ctypes, os, runpy, signal, sys\n"
    "if sys.platform == 'linux':\n"
    "    ctypes.CDLL(None).prctl(1, signal.SIGKILL)\n"
    "if os.getppid() != {parent}:\n"
    "    sys.exit('error: the process that started this job has ended')\n"
    "limits = os.environ.pop('CARDTABLE_JOB_LIMITS', '')\n"
    "memory = 0\n"
    "if limits:\n"
    "    import resource\n"
    "    cpu, memory = (int(n) for n in limits.split(','))\n"
    "    signal.signal(signal.SIGXCPU, lambda *_: os._exit(87))\n"
    "    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 5))\n"
    "    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))\n"
    "sys.argv = [{module!r}, *sys.argv[1:]]\n"
    "try:\n"
    "    runpy.run_module({module!r}, run_name='__main__', alter_sys=True)\n"
    "except Exception as error:\n"
    "    try:\n"
    "        peak = [l for l in open('/proc/self/status') if l.startswith('VmPeak:')] if memory else []\n"
    "        near = bool(peak) and int(peak[0].split()[1]) * 1024 > memory - {headroom}\n"
    "    except MemoryError:\n"
    "        near = True\n"
    "    if near or isinstance(error, MemoryError):\n"
    "        os._exit(86)\n"
    "    raise\n"
)
# A failed allocation inside C code can surface as another exception than MemoryError (such as
# "SystemError: error return without exception set"): an error raised with the address space
# this close to its limit is taken for the memory limit.
MEMORY_HEADROOM = 8 * 1024 * 1024
LIMITS_ENV = "CARDTABLE_JOB_LIMITS"  # the name GUARD reads
TRIES = 8  # a claim tried while the database is busy, about 6 s in all
MEMORY_EXIT = 86  # the exit statuses GUARD uses
CPU_EXIT = 87


def job_memory_mb() -> int:
    """Return the address space a job child may use, in MiB (``JOB_MEMORY_MB``, else 1024)."""
    return int(getattr(settings, "JOB_MEMORY_MB", 1024))


def job_cpu_seconds(limit: float) -> int:
    """Return the CPU seconds a job child may use: ``JOB_CPU_SECONDS`` (else 1800), never more than
    its wall-clock ``limit`` (a child that computes on more than one thread could outrun that)."""
    return max(1, math.ceil(min(float(getattr(settings, "JOB_CPU_SECONDS", 1800)), limit)))


def module_command(module: str, *args: str, niceness: int = 10, idle: bool = False) -> list[str]:
    """Return the command line running ``python -m MODULE ARGS`` niced, dying with its parent
    thread (``nice`` runs the program in its own place, so the parent stays this process).
    ``idle``: also under Linux's ``SCHED_IDLE`` policy (``chrt --idle``, where it exists), which
    runs it only on CPU time nothing else at a normal priority wants."""
    nice = ["nice", "-n", str(niceness)] if os.name == "posix" else []
    if idle and shutil.which("chrt"):
        nice = ["chrt", "--idle", "0", *nice]
    guard = GUARD.format(parent=os.getpid(), module=module, headroom=MEMORY_HEADROOM)
    return [*nice, sys.executable, "-c", guard, *args]


def games_command(*args: str, niceness: int = 10, idle: bool = False) -> list[str]:
    """Return the command line running ``python -m games ARGS`` as a job's child (``module_command``)."""
    return module_command("games", *args, niceness=niceness, idle=idle)


def worker_id() -> str:
    """Return this process's name as a job's worker: ``host:pid``."""
    return f"{socket.gethostname()}:{os.getpid()}"


def worker_alive(worker: str) -> bool:
    """Return whether the process named ``host:pid`` may still run (one on another host is assumed to)."""
    host, _, pid = worker.rpartition(":")
    if host != socket.gethostname() or not pid.isdigit():
        return True
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class JobQueue:
    """The rows of ``model`` as a queue, worked oldest first (``order``) by one thread per process."""

    def __init__(self, model: Any, name: str, order: str, work: Callable[[Any], None]) -> None:
        self.model = model
        self.name = name
        self.order = order
        self.work = work
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._child: subprocess.Popen | None = None

    def requeue_dead(self) -> None:
        """Queue again the rows left running by a process that has died."""
        model = self.model
        for row in model.objects.filter(status=model.RUNNING):
            if not worker_alive(row.worker):
                model.objects.filter(pk=row.pk, status=model.RUNNING, worker=row.worker).update(
                    status=model.QUEUED, worker=""
                )

    def resume(self) -> int:
        """Queue again the rows whose worker has died; start the worker if any row waits.
        Return how many rows are queued or running."""
        model = self.model
        self.requeue_dead()
        if model.objects.filter(status=model.QUEUED).exists():
            self.ensure_worker()
        return model.objects.filter(status__in=[model.QUEUED, model.RUNNING]).count()

    def ensure_worker(self) -> None:
        """Start this process's supervisor thread unless it runs (it stops when the queue is empty).
        Touches no database: safe to call from the event loop."""
        with self._lock:
            if self._thread is not None:
                return
            self._thread = threading.Thread(target=self._serve, name=self.name, daemon=True)
            self._thread.start()

    def running_child(self) -> int | None:
        """Return the pid of the child process computing a job now, if any."""
        child = self._child
        return child.pid if child is not None and child.poll() is None else None

    def wait(self, seconds: float) -> bool:
        """Wait up to ``seconds`` for the supervisor to finish the queue; return whether it did."""
        thread = self._thread
        if thread is not None:
            thread.join(seconds)
            return not thread.is_alive()
        return True

    def claim(self) -> Any | None:
        """Return the oldest queued row, now marked running by this process, or ``None``."""
        model, me = self.model, worker_id()
        for pk in model.objects.filter(status=model.QUEUED).order_by(self.order).values_list("pk", flat=True):
            if model.objects.filter(pk=pk, status=model.QUEUED).update(status=model.RUNNING, worker=me):
                return model.objects.get(pk=pk)
        return None

    def _serve(self) -> None:
        """Run queued jobs until none is left, then let the thread end."""
        try:
            close_old_connections()
            patiently(self.requeue_dead)
            while True:
                close_old_connections()
                for attempt in range(TRIES):
                    try:
                        with self._lock:
                            row = self.claim()
                            if row is None:
                                self._thread = None
                                return
                        break
                    except OperationalError:
                        # A busy database (SQLite's lock held by a request): not the end of the queue.
                        if attempt == TRIES - 1:
                            raise
                        time.sleep(0.2 * (attempt + 1))
                try:
                    self.work(row)
                except Exception as error:
                    # Whatever breaks a job ends it as failed: it must not stay "running" for ever.
                    self.fail(row, f"{type(error).__name__}: {error}")
        finally:
            connection.close()
            with self._lock:
                if self._thread is threading.current_thread():
                    self._thread = None

    def run_child(
        self, command: list[str], limit: float, cwd: str, group: int = 19
    ) -> tuple[int | None, str]:
        """Run ``command`` as this queue's child; return its exit status (``None``: killed after
        ``limit`` seconds) and its standard error. The child limits its own CPU time and memory
        (``job_cpu_seconds``, ``job_memory_mb``: ``GUARD``); its session's CPU group gets the
        niceness ``group``."""
        limits = f"{job_cpu_seconds(limit)},{job_memory_mb() * 1024 * 1024}"
        # A session of its own: where Linux groups the CPU by session (autogroup), the child's CPU
        # would count against the server's share; its own group is set to a low weight (the lowest,
        # 19, unless someone waits for the job: a busy machine gives such a group next to nothing).
        child = subprocess.Popen(
            command,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            cwd=cwd,
            env={**os.environ, LIMITS_ENV: limits},
            start_new_session=os.name == "posix",
        )
        self._child = child
        with contextlib.suppress(OSError):
            Path(f"/proc/{child.pid}/autogroup").write_text(str(group))
        # A server pinned to a core (docs/deploy.md) would pass its pin on: a job may run on any core.
        with contextlib.suppress(OSError, AttributeError):
            os.sched_setaffinity(child.pid, range(os.cpu_count() or 1))
        try:
            _, err = child.communicate(timeout=limit)
        except subprocess.TimeoutExpired:
            child.kill()
            child.communicate()
            return None, ""
        finally:
            self._child = None
        return child.returncode, err

    def run_row(
        self, row: Any, command: list[str], limit: float, cwd: str, setting: str, group: int = 19
    ) -> bool:
        """Run ``command`` for ``row`` (``run_child``); return whether it succeeded, else mark the row
        failed with why (stopped after ``limit`` seconds, the ``setting`` that says so; or the child's
        last line)."""
        status, err = self.run_child(command, limit, cwd, group)
        if status is None:
            self.fail(row, f"stopped after {limit:.0f} s ({setting})")
        elif status != 0:
            self.fail(row, limit_message(status, limit) or last_line(err, status))
        return status == 0

    def fail(self, row: Any, message: str) -> None:
        """Mark a job failed with ``message``."""
        self.model.objects.filter(pk=row.pk).update(
            status=self.model.FAILED, worker="", message=message[:1000]
        )


def patiently(call: Callable[[], Any]) -> Any:
    """Return ``call()``, tried again a few times while the database is busy (``OperationalError``)."""
    for attempt in range(TRIES - 1):
        try:
            return call()
        except OperationalError:
            time.sleep(0.2 * (attempt + 1))
    return call()


def limit_message(status: int, limit: float) -> str:
    """Return why a child that ended with ``status`` was stopped by its own limits ('' if it was not)."""
    cpu = f"{job_cpu_seconds(limit)} s of CPU time (JOB_CPU_SECONDS)"
    memory = f"{job_memory_mb()} MiB of memory (JOB_MEMORY_MB)"
    if status in (CPU_EXIT, -signal.SIGXCPU):  # past its soft CPU limit: the guard's handler, or the kernel's
        return f"stopped after {cpu}"
    if status == MEMORY_EXIT:
        return f"stopped: it needed more than {memory}"
    if status == -signal.SIGKILL:  # the kernel past the hard CPU limit (or short of memory)
        return f"killed by the system: past its {cpu} or its {memory}"
    return ""


def last_line(err: str, status: int | None) -> str:
    """Return what a failed child said last (its error line), or its exit status."""
    return (err.strip().splitlines() or [f"exit status {status}"])[-1]
