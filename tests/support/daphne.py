"""Free loopback ports and the card table served by a real Daphne process."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_daphne(
    port: int,
    env: dict[str, str],
    log_path: Path,
    *,
    args: Sequence[str] = (),
    probe: str = "/api/games/",
    timeout: float = 30,
) -> subprocess.Popen:
    """Serve the project with Daphne on ``port``, its output appended to ``log_path``.

    Returns once ``probe`` answers HTTP (any status: a 400 for a host not allowed
    is an answer too); raises ``RuntimeError`` with the log's tail if the process
    exits or does not answer within ``timeout`` seconds.
    """
    command = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), *args]
    with open(log_path, "ab") as log:  # the child keeps its own copy of the descriptor
        process = subprocess.Popen(
            [*command, "cardtable.asgi:application"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
        )
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"daphne exited with {process.returncode}:\n{log_tail(log_path)}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{probe}", timeout=2):
                return process
        except urllib.error.HTTPError:
            return process
        except OSError:
            time.sleep(0.1)
    stop(process)
    raise RuntimeError(f"daphne did not answer within {timeout}s:\n{log_tail(log_path)}")


def stop(process: subprocess.Popen | None, sig: int = signal.SIGKILL, wait: float = 20) -> None:
    """Send ``sig`` (SIGKILL by default: no cleanup runs, as in a crash) and reap the process."""
    if process is not None and process.poll() is None:
        process.send_signal(sig)
        process.wait(wait)


def log_tail(path: Path | None, lines: int = 40) -> str:
    """The last lines a server wrote to ``path`` (for failure messages)."""
    if path is None or not path.exists():
        return ""
    return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
