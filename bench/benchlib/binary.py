"""Section 8: the release binary itself (issue 17): its size, what it links, how fast it starts and
how much memory it takes, for the self-contained (static Swift runtime) build, and, when
BENCH_BEFORE_CAMREC names an older camrec built without it, the same figures for that one."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

from .common import Child, log, median, run_quiet, spread
from .section import Context, SectionResult, SummaryRow, table
from .tools import YUYV_720

RECORD_SECONDS = 10


def linked_libraries(binary: Path) -> list[str]:
    """The paths ldd resolves for the binary (or the bare names it cannot find)."""
    done = run_quiet(["ldd", binary], check=False)
    paths = []
    for line in done.stdout.splitlines():
        parts = line.split("=>")
        target = (parts[1] if len(parts) > 1 else parts[0]).strip().split(" (")[0].strip()
        if target:
            paths.append(target)
    return paths


def toolchain_libraries(paths: list[str]) -> list[str]:
    """The libraries that come from the Swift toolchain rather than from the system."""
    return [p for p in paths if "swift" in p.lower() or "libFoundation" in p or "libdispatch" in p
            or "libBlocksRuntime" in p or "not found" in p]


def library_bytes(paths: list[str]) -> int:
    total = 0
    for p in paths:
        try:
            total += os.stat(p).st_size
        except OSError:
            pass
    return total


def stripped_size(binary: Path, work: Path) -> int | None:
    if not shutil.which("strip"):
        return None
    copy = work / (binary.name + ".stripped")
    shutil.copyfile(binary, copy)
    if subprocess.run(["strip", "--strip-unneeded", str(copy)], capture_output=True).returncode != 0:
        return None
    return copy.stat().st_size


def timed(ctx: Context, argv: list, env: dict, run_dir: Path, name: str, runs: int) -> list[tuple[float, int]]:
    """(wall seconds, peak RSS KB) of `runs` runs after one warm-up run. The peak comes from GNU
    time, which forks the tool from its own small process: a process forked from this Python
    harness carries the harness's RSS until it execs, and Linux keeps that in ru_maxrss across
    the exec (about 21 MB here: more than camrec --version uses)."""
    gnu_time = shutil.which("time", path="/usr/bin") or "/usr/bin/time"
    out = []
    for r in range(runs + 1):
        rss_file = run_dir / f"{name}-{r}.maxrss"
        done = Child([gnu_time, "-f", "%M", "-o", rss_file, *argv], env, run_dir, f"{name}-{r}", timeout=60).wait()
        if r == 0 or done.returncode != 0:
            continue   # the warm-up run, or a failure (its stderr is in run_dir)
        try:
            rss = int(rss_file.read_text().split()[-1])
        except (OSError, ValueError, IndexError):
            continue
        out.append((done.wall, rss))
    return out


def measure(ctx: Context, label: str, binary: Path) -> dict:
    run_dir = ctx.dir(f"binary/{label}")
    runs = max(ctx.settings.runs * 2, 4)
    env = ctx.toolbox.env(YUYV_720.vcam("/dev/video0"))
    libs = linked_libraries(binary)
    from_toolchain = toolchain_libraries(libs)
    version = timed(ctx, [binary, "--version"], env, run_dir, "version", runs)
    devices = timed(ctx, [binary, "devices", "--json"], env, run_dir, "devices", runs)
    output = run_dir / "record.mp4"
    argv = [binary, "--device", "/dev/video0", "--size", "1280x720", "--fps", "30",
            "--max-duration", str(RECORD_SECONDS), "--force", "--json", output]
    recordings = [rss for _, rss in timed(ctx, argv, env, run_dir, "record", max(ctx.settings.runs // 2, 1))]
    return {
        "label": label, "binary": binary, "size": binary.stat().st_size,
        "stripped": stripped_size(binary, run_dir), "libs": libs, "toolchain": from_toolchain,
        "toolchain_bytes": library_bytes(from_toolchain),
        "version_ms": [w * 1000 for w, _ in version], "version_rss": [k / 1024 for _, k in version],
        "devices_ms": [w * 1000 for w, _ in devices], "devices_rss": [k / 1024 for _, k in devices],
        "record_rss": [k / 1024 for k in recordings],
    }


def section(ctx: Context) -> SectionResult:
    started = time.monotonic()
    result = SectionResult("binary", "8. The release binary")
    before_path = os.environ.get("BENCH_BEFORE_CAMREC")
    result.method = [
        "The release `camrec` as `swift build -c release` makes it (the Swift runtime and Foundation "
        "linked in statically), what `ldd` lists for it, its size as built and stripped "
        "(`strip --strip-unneeded`, as `scripts/package` ships it), and, after one discarded "
        "warm-up run, the time from fork to exit (wait4(2)) and the peak RSS (GNU time, which "
        "forks the tool from its own small process) of `camrec --version`, `camrec devices "
        f"--json` with one emulated camera, and a {RECORD_SECONDS}-s 1280x720@30 YUYV recording "
        "(peak RSS). Toolchain libraries are those ldd resolves from the Swift toolchain; their "
        "size is what a copy of the binary needs beside it to run."
        + (" The \"before\" rows measure, the same way in the same run, the camrec named by "
           "BENCH_BEFORE_CAMREC: a release build from before the static linking." if before_path else ""),
    ]
    builds = []
    if before_path:
        log(f"binary: measuring the earlier build {before_path}")
        builds.append(measure(ctx, "before", Path(before_path)))
    log("binary: measuring the release build")
    builds.append(measure(ctx, "now", ctx.toolbox.camrec))
    mb = lambda n: f"{n / 1e6:.1f} MB" if n is not None else "—"
    rows = []
    for b in builds:
        name = "static Swift runtime (now)" if b["label"] == "now" else "dynamic Swift runtime (before)"
        rows.append([name, mb(b["size"]), mb(b["stripped"]),
                     f"{len(b['libs'])} ({len(b['toolchain'])} from the toolchain, {mb(b['toolchain_bytes'])})",
                     spread(b["version_ms"], "{:.0f}", " ms"), spread(b["devices_ms"], "{:.0f}", " ms"),
                     spread(b["version_rss"], "{:.1f}", " MB"), spread(b["record_rss"], "{:.1f}", " MB")])
    result.body.append(table(["build", "binary", "stripped", "libraries ldd lists",
                              "`--version`", "`devices --json`", "peak RSS, `--version`",
                              f"peak RSS, {RECORD_SECONDS}-s 720p recording"], rows))
    now = builds[-1]
    if now["toolchain"]:
        result.body.append("Toolchain libraries still linked: " + ", ".join(f"`{p}`" for p in now["toolchain"]) + ".")
    before = builds[0] if len(builds) > 1 else None

    def with_before(key: str, fmt: str, unit: str) -> str:
        text = spread(now[key], fmt, unit)
        return text + (f"; before: {spread(before[key], fmt, unit)}" if before else "")

    result.summary.append(SummaryRow(
        "libraries from the Swift toolchain that the release binary needs", str(len(now["toolchain"]))
        + (f"; before: {len(before['toolchain'])}" if before else ""),
        goal="0 (runs without the toolchain)", met=not now["toolchain"]))
    result.summary.append(SummaryRow(
        "release binary, stripped (as packaged)", mb(now["stripped"])
        + (f"; before: {mb(before['stripped'])} + {mb(before['toolchain_bytes'])} of toolchain libraries"
           if before else "")))
    result.summary.append(SummaryRow("`camrec --version`, fork to exit", with_before("version_ms", "{:.0f}", " ms")))
    result.summary.append(SummaryRow(f"peak RSS, {RECORD_SECONDS}-s 720p recording",
                                     with_before("record_rss", "{:.1f}", " MB")))
    result.seconds = time.monotonic() - started
    return result
