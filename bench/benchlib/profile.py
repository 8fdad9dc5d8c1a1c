"""Profiles for the known gaps: one extra, unmeasured run under `perf record`, summarised.

A figure that misses its goal is listed with what limits it. This runs the same command once
more under `perf record -e cpu-clock -g` (software clock sampling: this VM has no hardware
counters) and summarises the samples: share by shared object, the busiest symbols and
threads, and the kernel's share split by what entered the kernel (which system call, page
faults, interrupts), from the kernel part of each sample's call chain. The measured runs are
never run under perf; a profile only explains a figure, it is not one.

If perf is missing or not allowed (perf_event_paranoid), every profile carries the reason
and the report prints it instead.
"""

from __future__ import annotations

import collections
import dataclasses
import os
import re
import shlex
import shutil
import subprocess
import tempfile
from pathlib import Path

from .common import Child, run_quiet
from .section import table

FREQ = 2000          # samples per CPU second
EVENT = "cpu-clock"  # software clock: no hardware counters in this VM
KERNEL = "[kernel.kallsyms]"

# What each way into the kernel means, for the reader of the report.
GLOSS = {
    "futex (wake)": "one thread waking another",
    "futex (wait)": "a thread going to sleep until woken",
    "futex": "thread wake-ups and waits",
    "read": "file or pipe reads",
    "pread64": "file reads",
    "lseek": "file seeks",
    "write": "file writes",
    "writev": "file writes",
    "pwrite64": "file writes",
    "ioctl": "device ioctls (camera buffers)",
    "ppoll": "waiting for file descriptors",
    "poll": "waiting for file descriptors",
    "page faults": "memory touched for the first time, or mapped file pages",
    "interrupts": "timer ticks and inter-processor interrupts",
    "execve": "loading the program",
    "mmap": "mapping memory or libraries",
    "munmap": "unmapping memory",
    "mprotect": "memory protection changes (loading libraries, thread stacks)",
    "clone3": "starting threads",
    "clone": "starting threads",
    "openat": "opening files",
    "sched_yield": "yielding the CPU",
    "nanosleep": "sleeping",
    "clock_nanosleep": "sleeping",
}


@dataclasses.dataclass
class Profile:
    """The summary of one profiled run (shares are fractions of all its samples)."""

    label: str
    samples: int = 0
    freq: int = FREQ
    dsos: list = dataclasses.field(default_factory=list)            # [(dso, share)], all, largest first
    symbols: list = dataclasses.field(default_factory=list)         # [(symbol, dso, share)]
    threads: list = dataclasses.field(default_factory=list)         # [(thread name, share)]
    kernel: float = 0.0
    entries: list = dataclasses.field(default_factory=list)         # [(way into the kernel, share)]
    kernel_symbols: list = dataclasses.field(default_factory=list)  # [(symbol, share)]
    seconds: float = 0.0       # wall time of the profiled command, exec to exit (or of the window kept)
    first_sample: float | None = None   # CLOCK_MONOTONIC time of the first sample kept
    error: str = ""

    @property
    def ok(self) -> bool:
        return not self.error and self.samples > 0

    @property
    def cpu_seconds(self) -> float:
        return self.samples / self.freq

    def dso_share(self, name: str) -> float:
        return dict(self.dsos).get(name, 0.0)

    def entry_share(self, name: str) -> float:
        return sum(v for k, v in self.entries if k == name or k.startswith(name + " "))


_AVAILABLE: tuple[bool, str] | None = None


def available() -> tuple[bool, str]:
    """Whether `perf record` works here (checked once): (True, "") or (False, why not)."""
    global _AVAILABLE
    if _AVAILABLE is None:
        if not shutil.which("perf"):
            _AVAILABLE = (False, "`perf` is not installed")
        else:
            with tempfile.TemporaryDirectory() as tmp:
                done = subprocess.run(["perf", "record", "-q", "-e", EVENT, "-F", str(FREQ), "-g",
                                       "-k", "CLOCK_MONOTONIC", "-o", f"{tmp}/check.data", "--", "true"],
                                      capture_output=True, text=True, stdin=subprocess.DEVNULL)
            if done.returncode == 0:
                _AVAILABLE = (True, "")
            else:
                why = (done.stderr.strip().splitlines() or ["no message"])[-1]
                try:
                    paranoid = Path("/proc/sys/kernel/perf_event_paranoid").read_text().strip()
                    why += f" (perf_event_paranoid = {paranoid})"
                except OSError:
                    pass
                _AVAILABLE = (False, f"`perf record` failed: {why}")
    return _AVAILABLE


def launcher(jobs: list[tuple[list[str], dict]]) -> list[str]:
    """The command perf starts: each job with its own environment (as a difference from the
    harness's, through `env`, so perf itself does not load the emulated camera); several jobs
    run at once from one shell, which perf follows into every child."""
    lines = []
    for argv, env in jobs:
        unset = [f"--unset={key}" for key in os.environ if key not in env]
        assign = [f"{key}={value}" for key, value in env.items() if os.environ.get(key) != value]
        lines.append(["env", *unset, *assign, *[str(a) for a in argv]])
    if len(lines) == 1:
        return lines[0]
    return ["sh", "-c", " ".join(shlex.join(line) + " &" for line in lines) + " wait"]


def record(jobs: list[tuple[list[str], dict]], run_dir: Path, name: str, nice: int = 0,
           timeout: float = 300, freq: int = FREQ) -> tuple[Path | None, object, str]:
    """Runs the jobs once under perf record; returns (perf.data, the finished run, error)."""
    ok, why = available()
    if not ok:
        return None, None, why
    data = run_dir / f"{name}.perf.data"
    argv = ["perf", "record", "-q", "-e", EVENT, "-F", str(freq), "-g", "-k", "CLOCK_MONOTONIC",
            "-o", str(data), "--", *launcher(jobs)]
    done = Child(argv, dict(os.environ), run_dir, f"perf-{name}", nice=nice, timeout=timeout).wait()
    if not data.exists() or data.stat().st_size == 0:
        return None, done, f"perf record failed (exit {done.returncode}): {done.stderr_tail(2)}"
    return data, done, ""


_HEADER = re.compile(r"^(\S.*?)\s+(\d+)\s+(\d+\.\d+):\s*$")
_FRAME = re.compile(r"^\s+[0-9a-f]+\s+(.*)\s+\((.*)\)$")
_SYSCALL = re.compile(r"^__(?:x64|ia32|x32)_sys_(\w+)$")
_TASK = re.compile(r"^\S.*?\s(\d+\.\d+):\s+(PERF_RECORD_COMM exec|PERF_RECORD_EXIT)")


def samples(data: Path, span: list | None = None):
    """(thread, time, frames) per sample from `perf script`; frames leaf first, as (symbol, dso).
    span, when given, gets [first exec, last exit] of the workload's processes (CLOCK_MONOTONIC)."""
    out = subprocess.run(["perf", "script", "-i", str(data), "--show-task-events", "-F", "comm,tid,time,ip,sym,dso"],
                         capture_output=True, text=True, errors="replace", stdin=subprocess.DEVNULL).stdout
    thread, when, frames = None, 0.0, []
    for line in out.splitlines():
        task = _TASK.match(line)
        if task:
            if span is not None:
                at = float(task.group(1))
                if task.group(2) == "PERF_RECORD_COMM exec" and at > 0:
                    span[0] = at if span[0] is None else min(span[0], at)
                elif task.group(2).startswith("PERF_RECORD_EXIT"):
                    span[1] = at if span[1] is None else max(span[1], at)
            continue
        header = _HEADER.match(line)
        if header:
            if thread is not None:
                yield thread, when, frames
            thread, when, frames = header.group(1), float(header.group(3)), []
            continue
        frame = _FRAME.match(line.replace(" (deleted))", ")"))   # run-time code in a deleted file (ORC)
        if frame and thread is not None:
            frames.append((frame.group(1), frame.group(2)))
    if thread is not None:
        yield thread, when, frames


def dso_name(path: str) -> str:
    """A shared object's short name: `[kernel]`, `libgstreamer-1.0.so.0`, `orcexec.*`."""
    if path == KERNEL:
        return "[kernel]"
    base = os.path.basename(path) or path
    return "orcexec.* (ORC run-time code)" if base.startswith("orcexec.") else base


def kernel_entry(frames) -> str:
    """What brought a kernel sample into the kernel, from its call chain: the system call (futex
    split into wake and wait), a page fault, an interrupt, or "other"."""
    names = [sym for sym, dso in frames if dso == KERNEL]
    call = next((m.group(1) for m in map(_SYSCALL.match, names) if m), None)
    if call is None:
        # Some system calls have no __x64_sys_ frame (inlined): take what do_syscall_64 called.
        entry = next((i for i, n in enumerate(names) if n in ("do_syscall_64", "x64_sys_call")), None)
        if entry:
            call = re.sub(r"^(__do_sys_|__se_sys_|ksys_|do_sys_)", "", names[entry - 1])
            call = {"mmap_pgoff": "mmap"}.get(call, call)
    if call == "futex":
        if any("futex_wake" in n or n == "wake_up_q" for n in names):
            return "futex (wake)"
        if any("futex_wait" in n for n in names):
            return "futex (wait)"
    if call:
        return call
    if any("page_fault" in n for n in names):
        return "page faults"
    if any(n.startswith(("asm_sysvec_", "sysvec_", "asm_common_interrupt", "common_interrupt", "irq_"))
           for n in names):
        return "interrupts"
    if any(n.startswith("ret_from_fork") for n in names):
        return "new threads"
    return "other"


def demangle(names: list[str]) -> dict[str, str]:
    """Swift symbols made readable with swift-demangle, when it is there."""
    swift = [n for n in names if n.startswith(("$s", "_$s"))]
    tool = shutil.which("swift-demangle")
    if not swift or not tool:
        return {}
    out = run_quiet([tool, "--simplified", "--compact", *swift], check=False).stdout.splitlines()
    return dict(zip(swift, out)) if len(out) == len(swift) else {}


def summarize(data: Path, label: str, since: float | None = None, until: float | None = None,
              freq: int = FREQ) -> Profile:
    """The profile of the samples in perf.data (only those between since and until, CLOCK_MONOTONIC
    seconds, when given)."""
    dsos, symbols, threads = collections.Counter(), collections.Counter(), collections.Counter()
    entries, ksyms = collections.Counter(), collections.Counter()
    total = kernel = 0
    first = None
    span = [None, None]
    for thread, when, frames in samples(data, span):
        if (since is not None and when < since) or (until is not None and when > until) or not frames:
            continue
        total += 1
        first = when if first is None else min(first, when)
        symbol, dso = frames[0]
        dsos[dso_name(dso)] += 1
        symbols[(symbol, dso_name(dso))] += 1
        threads[thread] += 1
        if dso == KERNEL:
            kernel += 1
            entries[kernel_entry(frames)] += 1
            ksyms[symbol] += 1
    if not total:
        return Profile(label, error="perf recorded no samples" + (" in the window" if since or until else ""))
    share = lambda counter, n=None: [(k, v / total) for k, v in counter.most_common(n)]
    top = share(symbols, 8)
    readable = demangle([s for (s, _), _ in top])
    return Profile(label, samples=total, freq=freq, first_sample=first,
                   seconds=span[1] - span[0] if None not in span else 0.0, dsos=share(dsos),
                   symbols=[(readable.get(s, s), d, v) for (s, d), v in top], threads=share(threads, 4),
                   kernel=kernel / total, entries=share(entries, 6), kernel_symbols=share(ksyms, 5))


def profile(jobs: list[tuple[list[str], dict]], run_dir: Path, name: str, label: str, nice: int = 0,
            timeout: float = 300, freq: int = FREQ, window=None) -> Profile:
    """One extra run of the jobs under perf, summarised. window(finished) may return
    (since, until) in CLOCK_MONOTONIC seconds to keep only part of the run (e.g. start-up)."""
    run_dir.mkdir(parents=True, exist_ok=True)
    data, done, error = record(jobs, run_dir, name, nice=nice, timeout=timeout, freq=freq)
    if error:
        return Profile(label, error=error)
    since, until = window(done) if window else (None, None)
    result = summarize(data, label, since, until, freq)
    if until is None:
        result.seconds = result.seconds or done.wall
    elif result.ok:
        result.seconds = until - (since if since is not None else result.first_sample)
    return result


# ---- report text --------------------------------------------------------------------------

def pct(share: float) -> str:
    if share <= 0:
        return "0"
    return f"{share * 100:.0f} %" if share >= 0.01 else f"{share * 100:.1f} %"


def gloss(entry: str) -> str:
    return GLOSS.get(entry, "")


def describe(p: Profile, entries: int = 3) -> str:
    """One sentence for a known-gaps bullet: '73 % of its samples in the kernel (futex (wake) 30 %
    — one thread waking another; read 6 %; …); busiest objects …'."""
    if not p.ok:
        return f"no profile ({p.error})"
    parts = [f"{pct(p.kernel)} of its CPU samples in the kernel"]
    if p.entries:
        parts[0] += " (" + "; ".join(f"{e} {pct(v)}" + (f": {gloss(e)}" if gloss(e) else "")
                                     for e, v in p.entries[:entries]) + ")"
    user = [(d, v) for d, v in p.dsos if d != "[kernel]"][:2]
    if user:
        parts.append("most of the rest in " + ", ".join(f"`{d}` {pct(v)}" for d, v in user))
    return "; ".join(parts)


def tables(profiles: list[Profile], per_second: list[float | None] | None = None, unit: str = "") -> str:
    """The full profile of each run side by side: where the samples are (kernel split by what
    entered it, then shared objects), the busiest symbols and threads. With per_second (the
    measured CPU of each tool), every share is also shown as that part of it."""
    bad = [p for p in profiles if not p.ok]
    if bad:
        return "No profile: " + "; ".join(f"{p.label}: {p.error}" for p in bad) + "."
    cell = lambda p, i, v: pct(v) + (f" · {v * per_second[i]:.3f}" if per_second and per_second[i] else "")
    head = ["", *[f"{p.label} ({p.samples} samples: {p.cpu_seconds:.2f} CPU s in {p.seconds:.2f} s)"
                  for p in profiles]]
    rows = [["**kernel, all**", *[cell(p, i, p.kernel) for i, p in enumerate(profiles)]]]
    entries = []
    for p in profiles:
        entries += [e for e, v in p.entries if v >= 0.01 and e not in entries]
    for e in entries:
        rows.append([f"kernel: {e}" + (f" — {gloss(e)}" if gloss(e) else ""),
                     *[cell(p, i, dict(p.entries).get(e, 0.0)) for i, p in enumerate(profiles)]])
    dsos = []
    for p in profiles:
        dsos += [d for d, v in p.dsos[:7] if d != "[kernel]" and v >= 0.01 and d not in dsos]
    for d in dsos:
        rows.append([f"`{d}`", *[cell(p, i, p.dso_share(d)) for i, p in enumerate(profiles)]])
    where = table(head, rows)
    width = max(len(p.symbols) for p in profiles)
    sym_rows = []
    for k in range(width):
        sym_rows.append([str(k + 1), *[
            f"`{short(p.symbols[k][0])}` ({p.symbols[k][1]}) {pct(p.symbols[k][2])}" if k < len(p.symbols) else ""
            for p in profiles]])
    sym_rows.append(["threads", *["; ".join(f"{t} {pct(v)}" for t, v in p.threads if v >= 0.01) for p in profiles]])
    symbols = table(["busiest", *[p.label for p in profiles]], sym_rows)
    note = ("Shares of each run's CPU samples (`perf record -e cpu-clock -F "
            f"{profiles[0].freq} -g`, one extra run each, not one of the measured runs; the heading gives "
            "its CPU time and wall time: a run that waits, for the disk or for another thread, has less "
            "CPU than wall time, and the wait is in no sample)"
            + (f"; after the dot, that share of the measured {unit}" if per_second else "") + ". "
            "Kernel samples are split by what brought the thread into the kernel (from the call chain). "
            "With software clock sampling, time spent with interrupts off is credited to the point where "
            "they are turned back on, so `_raw_spin_unlock_irqrestore`, `finish_task_switch` and the like "
            "stand for wake-ups and context switches.")
    return f"{note}\n\n{where}\n\n{symbols}"


def short(symbol: str, limit: int = 70) -> str:
    symbol = symbol.replace("`", "'")
    return symbol if len(symbol) <= limit else symbol[:limit - 1] + "…"
