"""Where a running server's CPU goes, per move: the profilers `bench/load.py --profile` uses.

Two ways to look, both summarised as milliseconds of server CPU per move:

- ``yappi`` (the default): the server starts with a ``sitecustomize`` that loads
  yappi on its CPU clock for every thread; a signal starts it at the window's
  start and another writes the figures at its end. It counts only time on the
  CPU, so a thread waiting for PostgreSQL or in ``select`` costs nothing. It
  slows the server about threefold, so its shares are scaled to the CPU per
  move measured from /proc in the same window.
- ``py-spy``: samples a running server from outside without changing it. On this
  machine it counted threads waiting in C (psycopg, ``select``) as busy, which
  inflates those frames; kept for servers the bench did not start.

The server side of both is started by ``server_shim``: a folder holding a
``sitecustomize.py`` (bench code, never the project's) put first on the
server's PYTHONPATH.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

PARALLEL_DB_SHIM = """
# Written by bench/load.py --parallel-db: an experiment, not the project's code.
# Channels runs every database_sync_to_async call on one thread (thread_sensitive),
# so a process issues one query at a time. Here they run on a pool of threads,
# each with its own database connection, to measure what that one thread costs.
import channels.db as _db

_init = _db.DatabaseSyncToAsync.__init__


def _pooled(self, func, thread_sensitive=True, executor=None, **kwargs):
    _init(self, func, thread_sensitive=False, executor=executor, **kwargs)


_db.DatabaseSyncToAsync.__init__ = _pooled
"""

YAPPI_SHIM = """
# Written by bench/load.py --profile yappi: a CPU profile of this server, bench code only.
# SIGUSR1 starts (and clears) it; SIGUSR2 stops it and writes every function's figures.
import os as _os
import signal as _signal

if _os.environ.get("CARDTABLE_YAPPI_OUT"):
    import yappi as _yappi

    _yappi.set_clock_type("cpu")

    def _yappi_start(*_):
        _yappi.clear_stats()
        _yappi.start(builtins=False, profile_threads=True)

    def _yappi_write(*_):
        _yappi.stop()
        path = f"{_os.environ['CARDTABLE_YAPPI_OUT']}.{_os.getpid()}"  # one file per server process
        threads = sum(t.ttot for t in _yappi.get_thread_stats())
        with open(path + ".tmp", "w") as out:
            out.write(f"threads {threads!r}\\n")
            for s in _yappi.get_func_stats():
                out.write(f"{s.ttot!r}\\t{s.tsub!r}\\t{s.ncall}\\t{s.module}:{s.lineno}\\t{s.name}\\n")
        _os.replace(path + ".tmp", path)

    _signal.signal(_signal.SIGUSR1, _yappi_start)
    _signal.signal(_signal.SIGUSR2, _yappi_write)
"""

# Frames every sample passes through (entry points, loops, thread pools): true of
# everything, so left out of the inclusive lists.
GENERIC = (
    "<frozen runpy>", "daphne/cli.py", "daphne/server.py", "daphne/__main__.py",
    "internet/asyncioreactor.py", "asyncio/base_events.py", "asyncio/events.py", "threading.py",
    "futures/thread.py", "asgiref/sync.py", "asgiref/current_thread_executor.py", "channels/db.py",
    "python/context.py", "channels/consumer.py", "channels/utils.py", "channels/routing.py",
    "channels/sessions.py", "channels/auth.py", "channels/middleware.py", "tables/origin.py",
    "cardtable/asgi.py", "python/log.py", "tables/dbthreads.py",
)  # fmt: skip


def server_shim(stack: contextlib.ExitStack, *, parallel_db: bool = False, yappi: bool = False) -> str:
    """A PYTHONPATH for the server whose ``sitecustomize.py`` applies the chosen shims."""
    folder = tempfile.mkdtemp(prefix="cardtable-shim-")
    stack.callback(shutil.rmtree, folder, True)
    parts = ([PARALLEL_DB_SHIM] if parallel_db else []) + ([YAPPI_SHIM] if yappi else [])
    Path(folder, "sitecustomize.py").write_text("\n".join(parts))
    return os.pathsep.join([folder, os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)


def _short(where: str) -> str:
    """A path as its last two parts: "authority/moving.py"."""
    return "/".join(where.split("/")[-2:])


def _rows(title: str, shares: list[tuple[str, float]], per_move: float, total: float) -> list[str]:
    rows = [title]
    rows += [f"    {n / total * per_move:6.2f} ms {n / total:4.0%}  {name}" for name, n in shares]
    return rows


class YappiProfile:
    """yappi in the server (started through ``server_shim(yappi=True)``) over one window."""

    def __init__(self, pid: int, path: Path) -> None:
        self.pid, self.path = pid, path.with_name(f"{path.name}.{pid}")
        self.path.unlink(missing_ok=True)
        os.kill(pid, signal.SIGUSR1)

    def summary(self, moves: int, cpu_per_move: float | None, top: int = 18) -> str:
        """Each function's share of the server's CPU (inclusive, then own time), in ms per move.

        Shares come from yappi; the milliseconds scale them to ``cpu_per_move``
        as measured from /proc in the same window, which yappi itself inflates
        about threefold: compare shares, and take CPU per move from a run without it.
        """
        import time

        os.kill(self.pid, signal.SIGUSR2)
        deadline = time.monotonic() + 30
        while not self.path.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        try:
            lines = self.path.read_text().splitlines()
        except OSError:
            return "  profile: yappi wrote nothing (is yappi installed? pip install -e '.[bench]')"
        finally:
            self.path.unlink(missing_ok=True)
        threads = float(lines[0].split()[1]) if lines and lines[0].startswith("threads ") else 0.0
        inclusive: Counter[str] = Counter()
        own: Counter[str] = Counter()
        for line in lines[1:]:
            ttot, tsub, _, where, name = line.split("\t", 4)
            file = _short(where.rsplit(":", 1)[0])
            own[file] += float(tsub)
            if not file.endswith(GENERIC):
                inclusive[f"{name} ({file})"] = max(inclusive[f"{name} ({file})"], float(ttot))
        if not threads or not moves:
            return "  profile: no samples"
        per_move = cpu_per_move if cpu_per_move is not None else threads * 1000 / moves
        head = f"  profile (yappi, all threads; {per_move:.2f} ms/move under yappi, ~3x slow: read shares):"
        rows = _rows(head + " inclusive", inclusive.most_common(top), per_move, threads)
        rows += _rows("  own time by file:", own.most_common(top), per_move, threads)
        return "\n".join(rows)


class SpyProfile:
    """py-spy sampling the server through one measurement window: where its CPU goes, per move.

    py-spy (``pip install py-spy``) counts a sample only while it thinks a thread
    is on the CPU, so samples over the sampling rate are CPU seconds; threads
    waiting inside C calls may still be counted.
    """

    RATE = 100  # samples a second

    def __init__(self, pid: int, seconds: float) -> None:
        self.path = Path(tempfile.mkstemp(prefix="cardtable-spy-", suffix=".txt")[1])
        spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
        command = [spy, "record", "--pid", str(pid), "--duration", str(max(1, round(seconds)))]
        command += ["--rate", str(self.RATE), "--format", "raw", "--nonblocking", "--output", str(self.path)]
        self.proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def summary(self, moves: int, cpu_per_move: float | None = None, top: int = 14) -> str:
        """CPU ms per move in all, then the functions (inclusive) and files (own time) that took it."""
        try:
            self.proc.wait(30)
            lines = self.path.read_text().splitlines()
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            return "  profile: py-spy gave nothing (is it installed? may it trace the server?)"
        finally:
            self.path.unlink(missing_ok=True)
        inclusive: Counter[str] = Counter()
        own: Counter[str] = Counter()
        total = 0
        for line in lines:
            stack, _, count = line.rpartition(" ")
            if not stack or not count.isdigit():
                continue
            frames = [_spy_frame(f) for f in stack.split(";")]
            n = int(count)
            total += n
            named = {f"{function} ({where})" for function, where in frames if not where.endswith(GENERIC)}
            for name in named:
                inclusive[name] += n
            own[frames[-1][1]] += n
        if not total or not moves:
            return "  profile: no samples"
        per_move = total * 1000 / self.RATE / moves
        sampled = total / self.RATE
        head = f"  profile (py-spy): {sampled:.1f} CPU s sampled, {per_move:.2f} ms per move; inclusive:"
        rows = _rows(head, inclusive.most_common(top), per_move, total)
        rows += _rows("  own time by file:", own.most_common(top), per_move, total)
        return "\n".join(rows)


def _spy_frame(text: str) -> tuple[str, str]:
    """A py-spy frame "function (path/to/file.py:12)" as (function, "to/file.py")."""
    function, _, where = text.partition(" (")
    return function, _short(where.rsplit(":", 1)[0])
