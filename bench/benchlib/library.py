"""Section 16: `camrec ls` over a big folder (issue 33): 10,000 files listed from their headers."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

from .common import Child, log, median, spread
from .section import Context, SectionResult, SummaryRow, table
from .tools import YUYV_720

FILES = 10_000
GOAL_SECONDS = 2.0


def make_folder(ctx: Context, run_dir: Path) -> tuple[Path, list[Path]]:
    """A few real segments recorded by camrec (MP4 and MKV, 1 s each at 1280x720) and a folder of
    FILES hard links to them, named as one run's segments (lib-00001.mp4 …): the same inodes, so
    the page cache holds them after the first listing (the figure is the warm-cache one)."""
    sources = run_dir / "sources"
    shutil.rmtree(sources, ignore_errors=True)
    sources.mkdir(parents=True)
    env = ctx.toolbox.env(YUYV_720.vcam("/dev/video0"))
    for ext in ("mp4", "mkv"):
        argv = ctx.toolbox.camrec_record(YUYV_720, "/dev/video0", 4, sources / f"seg.{ext}", extra=("--segment", "1"))
        done = Child(argv, env, run_dir, f"record-{ext}", timeout=60).wait()
        if done.returncode != 0:
            raise RuntimeError(f"camrec could not record the segments: {done.stderr_tail()}")
    segments = sorted(p for p in sources.iterdir() if p.suffix in (".mp4", ".mkv"))
    folder = run_dir / "folder"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    for index in range(FILES):
        source = segments[index % len(segments)]
        os.link(source, folder / f"lib-{index + 1:05d}{source.suffix}")
    return folder, segments


def section(ctx: Context) -> SectionResult:
    started = time.monotonic()
    result = SectionResult("library", "16. Listing recordings (camrec ls)")
    run_dir = ctx.dir("library")
    log(f"library: recording a few segments and linking them {FILES:,} times")
    folder, segments = make_folder(ctx, run_dir)
    runs = max(ctx.settings.runs, 3)
    figures: dict[str, list[float]] = {"json": [], "table": []}
    listed = None
    for name, extra in (("json", ["--json"]), ("table", [])):
        for r in range(runs + 1):
            done = Child([ctx.toolbox.camrec, "ls", *extra, folder], os.environ.copy(), run_dir, f"ls-{name}-{r}",
                         nice=ctx.nice, timeout=120).wait()
            if done.returncode != 0:
                raise RuntimeError(f"camrec ls failed: {done.stderr_tail()}")
            if r == 0:
                if name == "json" and done.stdout_path:
                    lines = [json.loads(line) for line in done.stdout_path.read_text().splitlines() if line]
                    listed = sum(1 for line in lines if line.get("type") == "library-file")
                continue   # the warm-up run fills the page cache
            figures[name].append(done.wall)
    result.method = [
        f"camrec records 4 one-second 1280x720 segments as MP4 and 4 as MKV from the emulated camera; "
        f"a folder gets {FILES:,} hard links to them named as one run's segments (`lib-00001.mp4` …), so "
        f"that every file is a real camrec movie and the whole folder fits in the page cache. "
        f"`camrec ls --json FOLDER` (stdout to a file) and `camrec ls FOLDER` (the table) run "
        f"{runs} times each after one warm-up run; the time is fork to exit (wait4). ls reads only "
        "headers: an MP4's box headers and small boxes (never the sample tables), a Matroska file's "
        "first elements. No peer lists recordings: the goal is the issue's."
    ]
    result.body.append(table(
        ["command", "files", "files listed (JSON lines)", "wall time", "per file"],
        [[f"`camrec ls --json`", f"{FILES:,}", str(listed), spread(figures["json"], "{:.2f}", " s"),
          f"{(median(figures['json']) or 0) / FILES * 1e6:.0f} µs"],
         [f"`camrec ls`", f"{FILES:,}", "—", spread(figures["table"], "{:.2f}", " s"),
          f"{(median(figures['table']) or 0) / FILES * 1e6:.0f} µs"]]))
    json_median = median(figures["json"])
    result.summary.append(SummaryRow(f"`camrec ls --json` of {FILES:,} files (warm cache)",
                                     spread(figures["json"], "{:.2f}", " s"), goal=f"< {GOAL_SECONDS:g} s",
                                     met=json_median is not None and json_median < GOAL_SECONDS and listed == FILES))
    result.gaps.append("**Listing recordings**: measured with a warm cache only: every link shares one of 8 "
                       "inodes, so after the warm-up run the headers come from memory; a folder of distinct "
                       "files on a slow card reads one or two pages of each.")
    shutil.rmtree(folder, ignore_errors=True)
    result.seconds = time.monotonic() - started
    return result
