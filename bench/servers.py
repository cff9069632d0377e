"""Start and stop the processes the load benchmark and the cluster tests run against: gunicorn
serving the app and redis-server for the shared result cache, on loopback, each in its own
process group so that exactly what was started is stopped (by PID, never by name)."""

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


class ServerError(RuntimeError):
    """A server did not start."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_gunicorn(
    port: int,
    env: dict,
    *,
    workers: int,
    threads: int,
    wait: float = 20.0,
    log_path: Path | None = None,
    worker_connections: int | None = None,
    cwd: Path = ROOT,
) -> subprocess.Popen:
    """gunicorn (gthread) on 127.0.0.1:port; returns once /healthz answers 200. Its log (the app's
    warnings included) goes to `log_path`, by default a temporary file; the path is `proc.log_path`.

    `worker_connections` caps the connections one worker holds. A load generator opens its
    keep-alive connections in one burst, and a gthread worker accepts as many as it can: without a
    cap all of them may land on one worker, which then serves them on one core while the other
    workers idle (bench/load.py says why it sets one). `cwd`: the checkout whose code it serves
    (bench/load.py --ref: an earlier commit's worktree)."""
    cmd = [
        sys.executable,
        "-m",
        "gunicorn",
        "config.wsgi:application",
        "-c",
        str(ROOT / "config" / "gunicorn.py"),  # as the Dockerfile: /metrics in multiprocess mode (this checkout's, for a --ref server too)
        "--bind",
        f"127.0.0.1:{port}",
        "--workers",
        str(workers),
        "--threads",
        str(threads),
        "--worker-class",
        "gthread",
        "--log-level",
        "warning",
        "--keep-alive",
        "5",
    ]
    if worker_connections:
        cmd += ["--worker-connections", str(worker_connections)]
    if log_path is None:
        fd, name = tempfile.mkstemp(prefix=f"gunicorn-{port}-", suffix=".log")
        os.close(fd)
        log_path = Path(name)
    with open(log_path, "ab") as log:  # a file, not a pipe nobody reads: a chatty server must never block
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=log, start_new_session=True)
    proc.log_path = log_path
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2)
            return proc
        except OSError:  # not listening yet, or search not ready (503)
            if proc.poll() is not None:
                raise ServerError(f"gunicorn exited: {log_path.read_text(errors='replace')[-2000:]}") from None
            time.sleep(0.2)
    stop_process_group(proc)
    raise ServerError(f"gunicorn on port {port} was not healthy within {wait:g}s")


def start_redis(port: int) -> subprocess.Popen:
    """A throwaway redis-server on 127.0.0.1:port, no persistence; returns once it accepts connections."""
    proc = subprocess.Popen(
        ["redis-server", "--bind", "127.0.0.1", "--port", str(port), "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return proc
        except OSError:
            if proc.poll() is not None:
                raise ServerError(f"redis-server exited with status {proc.returncode}") from None
            time.sleep(0.05)
    stop_process_group(proc)
    raise ServerError(f"redis-server did not listen on port {port}")


def worker_pids(proc: subprocess.Popen) -> list[int]:
    """The processes whose parent is `proc` (gunicorn's master: its workers), from /proc."""
    found = []
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            fields = dict(line.split(":", 1) for line in status.read_text().splitlines() if ":" in line)
        except OSError:  # it exited meanwhile
            continue
        if int(fields.get("PPid", "0")) == proc.pid:
            found.append(int(status.parent.name))
    return sorted(found)


def rss_kib(pid: int) -> int | None:
    """The process's resident set (VmRSS of /proc/<pid>/status) in KiB, None once it has exited."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def stop_process_group(proc: subprocess.Popen, *, timeout: float = 30) -> None:
    """SIGTERM the process group we started (gunicorn's master and its workers), then wait."""
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
