"""Section 11 (opt-in: `--only footprint` or `--all`): camrec's peak RSS against gst-launch-1.0
running camrec's own pipeline (issue 14 point 5, goal ≤ 1.1×), at 640x480 and 1280x720 from the
emulated camera, short recordings side by side, and where each process's resident memory is
(the executable's own pages, shared libraries, malloc's heaps, the camera's buffers)."""

from __future__ import annotations

import os
import re
import shutil
import threading
import time
from pathlib import Path

from .common import Child, load_average, log, median, spread
from .section import Context, SectionResult, SummaryRow, table
from .tools import YUYV_480, YUYV_720, Mode

GOAL = 1.1
# Issue 37 item 1: camrec's own cost, at gst-launch's camera queue depth (v4l2src's 4 buffers).
GOAL_SAME_DEPTH = 1.15
TOOLS = ("camrec", "gst-launch")
# What runs side by side: camrec as it comes, camrec with --camera-buffers 4, gst-launch.
VARIANTS = ("camrec", "camrec-4", "gst-launch")


def kids(pid: int) -> list[int]:
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except (OSError, ValueError):
        return []


def classify(smaps: str, exe: str) -> dict[str, int]:
    """Resident KB of one process by kind of mapping (from /proc/PID/smaps)."""
    kinds: dict[str, int] = {}
    maps: list[dict] = []
    for line in smaps.splitlines():
        m = re.match(r"^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$", line)
        if m:
            maps.append({"start": int(m[1], 16), "end": int(m[2], 16), "perm": m[3], "path": m[4].strip(), "rss": 0})
        elif line.startswith("Rss:") and maps:
            maps[-1]["rss"] = int(line.split()[1])
    for i, m in enumerate(maps):
        path, perm = m["path"], m["perm"]
        if path == exe:
            kind = "the executable's own pages" if os.path.basename(exe) == "camrec" else "shared libraries"
        elif path.startswith("/") and ".so" in path:
            kind = "shared libraries"
        elif path.startswith("/memfd:"):
            kind = "the emulated camera's buffers (memfd)"
        elif path == "[heap]":
            kind = "malloc: main heap"
        elif path.startswith("["):
            kind = "stacks and other"
        elif path:
            kind = "other files"
        else:
            nxt = maps[i + 1] if i + 1 < len(maps) else None
            prev = maps[i - 1] if i else None
            if m["start"] % (64 << 20) == 0 and nxt and not nxt["path"] and nxt["perm"] == "---p" \
                    and nxt["end"] - m["start"] == 64 << 20 or (m["start"] % (64 << 20) == 0 and m["end"] - m["start"] == 64 << 20):
                kind = "malloc: thread arenas"
            elif prev and not prev["path"] and prev["perm"] == "---p" and prev["end"] == m["start"] \
                    and prev["end"] - prev["start"] <= 64 << 10 and m["end"] - m["start"] >= 256 << 10:
                kind = "stacks and other"
            else:
                kind = "other anonymous (large mallocs, GStreamer buffers)"
        kinds[kind] = kinds.get(kind, 0) + m["rss"]
    return kinds


KINDS = ("the executable's own pages", "shared libraries", "malloc: main heap", "malloc: thread arenas",
         "other anonymous (large mallocs, GStreamer buffers)", "the emulated camera's buffers (memfd)",
         "stacks and other", "other files")


class Run:
    """One tool's recording under GNU time (peak RSS from a small forking process: a child of
    this Python harness would inherit its ~21 MB in ru_maxrss, section 8), with a smaps snapshot
    at 3/4 of the recording."""

    def __init__(self, ctx: Context, tool: str, mode: Mode, device: str, seconds: float, run_dir: Path, name: str):
        self.seconds = seconds
        self.rss_file = run_dir / f"{name}.time"
        output = run_dir / f"{name}.mp4"
        if tool == "camrec-4":
            argv = ctx.toolbox.camrec_record(mode, device, seconds, output, extra=("--camera-buffers", "4"))
        else:
            argv = ctx.toolbox.record_command(tool, mode, device, seconds, output)
        gnu_time = shutil.which("time", path="/usr/bin") or "/usr/bin/time"
        self.child = Child([gnu_time, "-f", "%M %U %S", "-o", self.rss_file, *argv],
                           ctx.toolbox.env(mode.vcam(device)), run_dir, name, nice=ctx.nice, timeout=seconds + 60)
        self.kinds: dict[str, int] = {}
        self.thread = threading.Thread(target=self._snapshot, daemon=True)
        self.thread.start()

    def _snapshot(self) -> None:
        deadline = time.monotonic() + self.seconds * 0.75
        pid = None
        while time.monotonic() < deadline:
            if pid is None:
                # GNU time's child; `nice` execs in place, so it is the tool itself.
                found = kids(self.child.pid)
                pid = found[0] if found else None
            time.sleep(0.2)
        if pid is None:
            return
        try:
            exe = os.readlink(f"/proc/{pid}/exe")
            self.kinds = classify(Path(f"/proc/{pid}/smaps").read_text(), exe)
        except OSError:
            pass

    def finish(self) -> dict:
        done = self.child.wait()
        self.thread.join(timeout=5)
        try:
            peak, user, system = self.rss_file.read_text().split()[-3:]
            peak_mb, cpu = int(peak) / 1024, float(user) + float(system)
        except (OSError, ValueError):
            peak_mb, cpu = None, None
        return {"ok": done.returncode == 0, "peak": peak_mb, "cpu_per_s": cpu / self.seconds if cpu else None,
                "kinds": self.kinds, "stderr": done.stderr_tail(3)}


def section(ctx: Context) -> SectionResult:
    started = time.monotonic()
    result = SectionResult("footprint", "11. Peak memory against gst-launch")
    seconds = 5.0 if ctx.settings.quick else 20.0
    runs = 1 if ctx.settings.quick else 3
    modes = (YUYV_480, YUYV_720)
    result.method = [
        f"camrec and gst-launch-1.0 (running the pipeline camrec prints with `--print-pipeline`, as in "
        f"section 1) record {seconds:g} s of 640x480@30 and of 1280x720@30 YUYV side by side, each from "
        f"its own emulated camera, {runs} runs per size (which tool starts first alternates), and beside "
        "them camrec with `--camera-buffers 4`, the depth of gst-launch's v4l2src (camrec's default is half "
        "a second of frames: 15 at 30 fps), so that camrec's own cost is compared at the same depth "
        f"(issue 37: at most {GOAL_SAME_DEPTH:g}× gst-launch's). Peak RSS "
        "comes from GNU time (`%M`), which forks the tool from its own small process (a child of the "
        "Python harness would inherit its RSS in ru_maxrss, section 8); CPU is GNU time's user + system "
        "seconds per recorded second. At 3/4 of each recording the tool's /proc/PID/smaps is read and "
        "its resident memory split by mapping: the executable's own pages (camrec is one static binary "
        "with the Swift runtime and FoundationEssentials; gst-launch's executable is small and counted "
        "with the shared libraries), the shared libraries (GStreamer and its plugins, GLib, x264, libc), "
        "malloc's main heap and its per-thread arenas (64-MB aligned mappings), other anonymous memory "
        "(malloc's large blocks, GStreamer's video buffers) and the emulated camera's buffers (memfd, "
        "the same in both)."
    ]
    data = {(tool, mode.name): [] for tool in VARIANTS for mode in modes}
    loads = []
    for mode in modes:
        for r in range(runs):
            loads.append(load_average().split()[0])
            run_dir = ctx.dir(f"footprint/{mode.size}-{r}")
            order = VARIANTS if r % 2 == 0 else tuple(reversed(VARIANTS))
            log(f"footprint: {mode.name}, run {r + 1}/{runs}")
            active = []
            for i, tool in enumerate(order):
                active.append((tool, Run(ctx, tool, mode, f"/dev/video{60 + i}", seconds, run_dir, tool)))
            for tool, run in active:
                data[(tool, mode.name)].append(run.finish())
    def paired(cam: list[dict], gst: list[dict]) -> list[float]:
        return [c["peak"] / g["peak"] for c, g in zip(cam, gst) if c["peak"] and g["peak"] and c["ok"] and g["ok"]]

    rows, kind_rows, summary_ratios = [], [], {}
    for mode in modes:
        cam, cam4, gst = (data[(v, mode.name)] for v in VARIANTS)
        ratios, ratios4 = paired(cam, gst), paired(cam4, gst)
        summary_ratios[mode.name] = (cam, gst, ratios, cam4, ratios4)
        rows.append([mode.name, spread([c["peak"] for c in cam if c["ok"]], "{:.1f}", " MB"),
                     spread([c["peak"] for c in cam4 if c["ok"]], "{:.1f}", " MB"),
                     spread([g["peak"] for g in gst if g["ok"]], "{:.1f}", " MB"),
                     spread(ratios, "{:.2f}", "×"), spread(ratios4, "{:.2f}", "×"),
                     spread([c["cpu_per_s"] for c in cam if c["ok"]], "{:.3f}"),
                     spread([c["cpu_per_s"] for c in cam4 if c["ok"]], "{:.3f}"),
                     spread([g["cpu_per_s"] for g in gst if g["ok"]], "{:.3f}"),
                     f"{sum(not c['ok'] for c in cam)} / {sum(not c['ok'] for c in cam4)} / {sum(not g['ok'] for g in gst)}"])
        for kind in KINDS:
            values = [[x["kinds"].get(kind, 0) / 1024 for x in runs_ if x["kinds"]] for runs_ in (cam, cam4, gst)]
            if not any(v > 0.05 for vs in values for v in vs):
                continue
            c, c4, g = (median(v) or 0 for v in values)
            kind_rows.append([mode.name, kind, f"{c:.1f} MB", f"{c4:.1f} MB", f"{g:.1f} MB", f"{c - g:+.1f} MB", f"{c4 - g:+.1f} MB"])
        totals = [[sum(x["kinds"].values()) / 1024 for x in runs_ if x["kinds"]] for runs_ in (cam, cam4, gst)]
        c, c4, g = (median(v) or 0 for v in totals)
        kind_rows.append([mode.name, "**all (RSS at 3/4 of the recording)**", f"{c:.1f} MB", f"{c4:.1f} MB", f"{g:.1f} MB",
                          f"{c - g:+.1f} MB", f"{c4 - g:+.1f} MB"])
    result.body.append(table(["mode", "camrec peak RSS", "camrec --camera-buffers 4 peak RSS", "gst-launch peak RSS",
                              "camrec / gst-launch (per run)", "camrec --camera-buffers 4 / gst-launch (per run)",
                              "camrec CPU s per s", "camrec --camera-buffers 4 CPU s per s", "gst-launch CPU s per s",
                              "failed runs camrec / camrec -4 / gst-launch"], rows))
    result.body.append(
        "Load average (1 min) before each pair: " + ", ".join(loads) + ". The peaks depend on the load: "
        "when the encoder falls behind, up to 2 s of raw frames wait in the record queue (the same "
        "queue in both tools' pipeline; up to 37 MB at 640x480, 110 MB at 1280x720), so on a busy machine "
        "the queue, not the tool, sets both peaks, and the ratio tends to 1; the table below, taken "
        "between the peaks, shows what differs between the tools.")
    result.body.append("Where the resident memory is, at 3/4 of the recording (median over the runs):")
    result.body.append(table(["mode", "mappings", "camrec", "camrec --camera-buffers 4", "gst-launch", "difference",
                              "difference at 4 buffers"], kind_rows))
    for mode in modes:
        cam, gst, ratios, cam4, ratios4 = summary_ratios[mode.name]
        ratio = median(ratios)
        met = ratio is not None and ratio <= GOAL
        result.summary.append(SummaryRow(
            f"peak RSS, {seconds:g}-s recording ({mode.name}), camrec against gst-launch running its pipeline",
            spread([c["peak"] for c in cam if c["ok"]], "{:.1f}", " MB"),
            spread([g["peak"] for g in gst if g["ok"]], "{:.1f}", " MB"),
            vs_gst=spread(ratios, "{:.2f}", "×"), goal=f"≤ {GOAL:g}× gst-launch", met=met if ratios else None))
        if ratios and not met:
            result.gaps.append(f"**Peak memory ({mode.name})**: camrec's peak RSS is {spread(ratios, '{:.2f}', '×')} "
                               f"gst-launch's running the same pipeline (goal ≤ {GOAL:g}×); section 11 shows where.")
        ratio4 = median(ratios4)
        met4 = ratio4 is not None and ratio4 <= GOAL_SAME_DEPTH
        result.summary.append(SummaryRow(
            f"peak RSS, {seconds:g}-s recording ({mode.name}), camrec `--camera-buffers 4` against gst-launch "
            "(v4l2src's 4 buffers): the same queue depth",
            spread([c["peak"] for c in cam4 if c["ok"]], "{:.1f}", " MB"),
            spread([g["peak"] for g in gst if g["ok"]], "{:.1f}", " MB"),
            vs_gst=spread(ratios4, "{:.2f}", "×"), goal=f"≤ {GOAL_SAME_DEPTH:g}× gst-launch (issue 37)",
            met=met4 if ratios4 else None))
        if ratios4 and not met4:
            result.gaps.append(f"**Peak memory at the same camera depth ({mode.name})**: with `--camera-buffers 4` "
                               f"camrec's peak RSS is {spread(ratios4, '{:.2f}', '×')} gst-launch's (goal ≤ "
                               f"{GOAL_SAME_DEPTH:g}×): the executable's resident pages, section 11's split.")
    result.seconds = time.monotonic() - started
    return result
