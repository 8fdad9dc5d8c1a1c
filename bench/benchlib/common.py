"""Running child processes with their resource usage, statistics, and small helpers."""

from __future__ import annotations

import dataclasses
import json
import os
import shlex
import signal
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

from .results import Figure


def log(message: str) -> None:
    """Progress for the person running the suite (stderr, flushed)."""
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


@dataclasses.dataclass
class Finished:
    """A child process that has exited, with what getrusage(2) says it used."""

    argv: list[str]
    returncode: int
    wall: float          # seconds from just before fork to its exit
    cpu: float           # user + system seconds of the process and all its threads
    user: float
    system: float
    max_rss_kb: int      # peak resident set size (ru_maxrss)
    started_at: float    # time.monotonic() just before fork (CLOCK_MONOTONIC)
    stdout_path: Path | None
    stderr_path: Path | None
    lines: list[tuple[float, str]]  # stdout lines with their arrival time, when captured live
    switches: int = 0    # voluntary context switches (ru_nvcsw): the process's threads went to sleep
    preempted: int = 0   # involuntary context switches (ru_nivcsw)

    def stderr_tail(self, count: int = 6) -> str:
        if not self.stderr_path or not self.stderr_path.exists():
            return ""
        lines = self.stderr_path.read_text(errors="replace").strip().splitlines()
        return "\n".join(lines[-count:])


class Child:
    """A child process whose rusage is collected with wait4(2) (not through a wrapper such as
    /usr/bin/time, so nothing else runs in between). stdout goes to a file, or is read line by
    line with arrival times (live=True); stderr always goes to a file."""

    def __init__(self, argv: list[str], env: dict[str, str], run_dir: Path, name: str,
                 live: bool = False, nice: int = 0, timeout: float | None = None):
        self.argv = [str(a) for a in argv]
        self.name = name
        self.stdout_path = run_dir / f"{name}.stdout"
        self.stderr_path = run_dir / f"{name}.stderr"
        (run_dir / f"{name}.cmd").write_text(shlex.join(self.argv) + "\n")
        self.lines: list[tuple[float, str]] = []
        self.line_event = threading.Condition()
        full = self.argv
        if nice:
            # `nice` execs the tool in place: same pid, so wait4 still measures the tool itself.
            full = ["nice", "-n", str(nice), *self.argv]
        stderr = open(self.stderr_path, "wb")
        stdout = subprocess.PIPE if live else open(self.stdout_path, "wb")
        self.started_at = time.monotonic()
        self.popen = subprocess.Popen(full, env=env, stdout=stdout, stderr=stderr,
                                      stdin=subprocess.DEVNULL, cwd=run_dir)
        stderr.close()
        if not live:
            stdout.close()
        self.reader = None
        if live:
            self.reader = threading.Thread(target=self._read, daemon=True)
            self.reader.start()
        self.timer = None
        if timeout:
            self.timer = threading.Timer(timeout, self._expire)
            self.timer.daemon = True
            self.timer.start()
        self.timed_out = False

    @property
    def pid(self) -> int:
        return self.popen.pid

    def _read(self) -> None:
        with open(self.stdout_path, "w") as copy:
            assert self.popen.stdout is not None
            for raw in self.popen.stdout:
                now = time.monotonic()
                text = raw.decode(errors="replace").rstrip("\n")
                copy.write(text + "\n")
                with self.line_event:
                    self.lines.append((now, text))
                    self.line_event.notify_all()

    def wait_for_line(self, predicate, timeout: float, start_index: int = 0):
        """The first stdout line (index, time, text) from start_index on that matches."""
        deadline = time.monotonic() + timeout
        with self.line_event:
            while True:
                for index in range(start_index, len(self.lines)):
                    if predicate(self.lines[index][1]):
                        return index, self.lines[index][0], self.lines[index][1]
                start_index = len(self.lines)
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return None
                self.line_event.wait(remaining)

    def _expire(self) -> None:
        self.timed_out = True
        self.signal(signal.SIGINT)
        time.sleep(5)
        self.signal(signal.SIGKILL)

    @property
    def running(self) -> bool:
        """Whether the process has not exited yet (asked without reaping it, so wait() still works)."""
        try:
            return os.waitid(os.P_PID, self.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None
        except ChildProcessError:
            return False

    def signal(self, number: int) -> None:
        try:
            os.kill(self.pid, number)
        except ProcessLookupError:
            pass

    def wait(self) -> Finished:
        _, status, usage = os.wait4(self.pid, 0)
        ended = time.monotonic()
        self.popen.returncode = os.waitstatus_to_exitcode(status)
        if self.timer:
            self.timer.cancel()
        if self.reader:
            self.reader.join(timeout=10)
        return Finished(
            argv=self.argv, returncode=self.popen.returncode, wall=ended - self.started_at,
            cpu=usage.ru_utime + usage.ru_stime, user=usage.ru_utime, system=usage.ru_stime,
            max_rss_kb=usage.ru_maxrss, started_at=self.started_at,
            stdout_path=self.stdout_path, stderr_path=self.stderr_path, lines=list(self.lines),
            switches=usage.ru_nvcsw, preempted=usage.ru_nivcsw)


def run_quiet(argv: list[str], env: dict[str, str] | None = None, check: bool = True,
              timeout: float | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """Runs a helper (ffprobe, the build, version queries) and returns its text output."""
    return subprocess.run([str(a) for a in argv], env=env, check=check, capture_output=True,
                          text=True, timeout=timeout, cwd=cwd, stdin=subprocess.DEVNULL)


class RssSampler:
    """Samples VmRSS of a process once a second from /proc (a few microseconds each)."""

    def __init__(self, pid: int, started_at: float, interval: float = 1.0):
        self.pid = pid
        self.started_at = started_at
        self.interval = interval
        self.samples: list[tuple[float, int]] = []  # (seconds since start, KB)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        path = f"/proc/{self.pid}/status"
        while not self.stop.is_set():
            try:
                with open(path) as status:
                    for line in status:
                        if line.startswith("VmRSS:"):
                            self.samples.append((time.monotonic() - self.started_at, int(line.split()[1])))
                            break
            except (FileNotFoundError, ProcessLookupError, ValueError):
                return
            self.stop.wait(self.interval)

    def finish(self) -> list[tuple[float, int]]:
        self.stop.set()
        self.thread.join(timeout=5)
        return self.samples


# ---- statistics -------------------------------------------------------------------------

def json_lines(path) -> list[dict]:
    """The JSON lines of a file camrec's stdout went to (other lines left out)."""
    lines = []
    for text in Path(path).read_text(errors="replace").splitlines():
        try:
            lines.append(json.loads(text))
        except ValueError:
            continue
    return lines


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def spread(values, fmt: str = "{:.3f}", unit: str = "") -> str:
    """'median (min–max)' of the values, or '—' when there are none (a Figure: the text with its
    numbers, for the results file)."""
    values = [v for v in values if v is not None]
    if not values:
        return "—"
    m = statistics.median(values)
    numbers = dict(median=m, low=min(values), high=max(values), runs=len(values), unit=unit.strip())
    if len(values) == 1 or fmt.format(min(values)) == fmt.format(max(values)):
        return Figure(fmt.format(m) + unit + ("" if len(values) == 1 else " (every run)"), **numbers)
    return Figure(f"{fmt.format(m)}{unit} ({fmt.format(min(values))}–{fmt.format(max(values))})", **numbers)


def ratio_text(values) -> str:
    """Ratios as '0.98× (0.95–1.01)'."""
    values = [v for v in values if v is not None]
    if not values:
        return "—"
    m = statistics.median(values)
    numbers = dict(median=m, low=min(values), high=max(values), runs=len(values), unit="×")
    if len(values) == 1:
        return Figure(f"{m:.2f}×", **numbers)
    return Figure(f"{m:.2f}× ({min(values):.2f}–{max(values):.2f})", **numbers)


def duration_text(seconds: float) -> str:
    """600 → '10-min', 40 → '40-s'."""
    if seconds >= 60 and seconds % 60 == 0:
        return f"{seconds / 60:g}-min"
    return f"{seconds:g}-s"


def load_average() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"
