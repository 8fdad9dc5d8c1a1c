"""A CPU-limited cgroup for section 6's container part: the recordings of one level run in it
together, as in one container started with `docker run --cpus=N` (a CFS quota of N × the
period per period, Docker's period of 100 ms). When the group has used its quota it is
throttled: none of its threads runs until the next period, the cameras' capture threads
included, however little they need. That is CPU starvation a capture thread's priority
cannot escape, and what a camera's queue of buffers is for."""

from __future__ import annotations

import os
from pathlib import Path

PERIOD_US = 100_000  # Docker's --cpu-period default


class CpuLimit:
    """One cgroup with a CPU quota (cgroup v1's cpu controller, or v2's cpu.max)."""

    def __init__(self, path: Path, version: int, cpus: float):
        self.path, self.version, self.cpus = path, version, cpus
        self.name = f"a cgroup limited to {cpus:g} CPU"
        self._base = 0

    @classmethod
    def make(cls, cpus: float) -> "tuple[CpuLimit | None, str]":
        """The cgroup, or None and why not (no writable cpu controller here)."""
        quota = int(cpus * PERIOD_US)
        name = f"camrec-bench-{os.getpid()}"
        v1 = Path("/sys/fs/cgroup/cpu")
        v2 = Path("/sys/fs/cgroup")
        errors = []
        if (v1 / "cpu.cfs_quota_us").exists():
            path = v1 / name
            try:
                path.mkdir(exist_ok=True)
                (path / "cpu.cfs_period_us").write_text(str(PERIOD_US))
                (path / "cpu.cfs_quota_us").write_text(str(quota))
                return cls(path, 1, cpus), ""
            except OSError as error:
                errors.append(f"cgroup v1 {path}: {error.strerror}")
        if "cpu" in (v2 / "cgroup.controllers").read_text().split() if (v2 / "cgroup.controllers").exists() else False:
            path = v2 / name
            try:
                path.mkdir(exist_ok=True)
                (path / "cpu.max").write_text(f"{quota} {PERIOD_US}")
                return cls(path, 2, cpus), ""
            except OSError as error:
                errors.append(f"cgroup v2 {path}: {error.strerror}")
        return None, "; ".join(errors) or "no cgroup cpu controller on this machine"

    def wrap(self, argv: list[str]) -> list[str]:
        """argv started inside the cgroup: a shell moves itself in and execs the tool in place
        (same pid, so wait4 still measures the tool)."""
        procs = self.path / "cgroup.procs"
        return ["sh", "-c", f'echo $$ > "{procs}" && exec "$@"', "sh", *[str(a) for a in argv]]

    def _stat(self) -> int:
        try:
            for line in (self.path / "cpu.stat").read_text().splitlines():
                key, _, value = line.partition(" ")
                if key == "nr_throttled":
                    return int(value)
        except (OSError, ValueError):
            pass
        return 0

    def reset(self) -> None:
        """Start counting throttled periods for a level."""
        self._base = self._stat()

    def throttled(self) -> int:
        """Periods in which the group ran out of quota since `reset`."""
        return self._stat() - self._base

    def remove(self) -> None:
        try:
            self.path.rmdir()
        except OSError:
            pass
