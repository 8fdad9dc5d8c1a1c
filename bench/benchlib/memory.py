"""5. Memory: peak RSS and RSS growth across a long recording (full suite only), and RSS growth
over 500 pipelines built and torn down in one process (every run, see churn.py)."""

from __future__ import annotations

import threading
import time

from . import churn
from .common import Child, RssSampler, duration_text, log, median, spread
from .recording import analyse, rotate
from .section import Context, SectionResult, SummaryRow, table
from .tools import TOOLS, YUYV_480


class MemoryRun:
    """The three tools record 640x480@30 for the whole duration, side by side, in the background
    while other sections run (the suite's time budget has no 3 × 10 minutes to spare)."""

    def __init__(self, ctx: Context):
        self.ctx = ctx
        self.seconds = ctx.settings.memory_seconds
        self.run_dir = ctx.dir("memory")
        self.results: dict[str, dict] = {}
        self.started = time.monotonic()
        self.children = []
        for i, tool in enumerate(TOOLS):
            device = f"/dev/video{40 + i}"
            output = self.run_dir / f"{tool}.mp4"
            argv = ctx.toolbox.record_command(tool, YUYV_480, device, self.seconds, output)
            child = Child(argv, ctx.toolbox.env(YUYV_480.vcam(device)), self.run_dir, tool, nice=ctx.nice,
                          timeout=self.seconds * 2 + 120)
            self.children.append((tool, child, output, RssSampler(child.pid, child.started_at)))
        self.thread = threading.Thread(target=self._wait, daemon=True)
        self.thread.start()

    def _wait(self) -> None:
        for tool, child, output, sampler in self.children:
            done = child.wait()
            samples = sampler.finish()
            self.results[tool] = {"done": done, "samples": samples, "output": output}

    def join(self) -> None:
        remaining = self.seconds + 150 - (time.monotonic() - self.started)
        if self.thread.is_alive():
            log(f"waiting for the {duration_text(self.seconds)} memory recordings to end…")
        self.thread.join(timeout=max(1.0, remaining))


def window_mean(samples, lo: float, hi: float):
    values = [kb for t, kb in samples if lo <= t < hi]
    return sum(values) / len(values) if values else None


def slope_kb_per_min(samples, lo: float):
    points = [(t, kb) for t, kb in samples if t >= lo]
    if len(points) < 3:
        return None
    n = len(points)
    mt = sum(t for t, _ in points) / n
    mk = sum(k for _, k in points) / n
    var = sum((t - mt) ** 2 for t, _ in points)
    return 60 * sum((t - mt) * (k - mk) for t, k in points) / var if var else None


def churn_part(ctx: Context) -> SectionResult:
    """The pipeline churn (seconds), as a part of this section to add at its end."""
    part = SectionResult("memory", "5. Memory")
    data = churn.measure(ctx)
    part.method, part.body = churn.describe(data)
    growth = data.get("growth_mb")
    met = growth is not None and growth < churn.GOAL_MB
    part.summary.append(SummaryRow(
        f"RSS growth over {data.get('cycles', churn.CYCLES)} pipelines built and torn down",
        f"{growth:+.2f} MB" if growth is not None else "not measured", goal=f"< {churn.GOAL_MB:g} MB",
        met=met if growth is not None else None))
    if growth is not None and not met:
        part.gaps.append(f"**Pipeline churn**: camrec's bindings grow RSS by {growth:+.2f} MB over "
                         f"{data['cycles']} pipelines (goal < {churn.GOAL_MB:g} MB): a leak per pipeline.")
    return part


def add(result: SectionResult, part: SectionResult) -> SectionResult:
    result.method += part.method
    result.body += part.body
    result.summary += part.summary
    result.gaps += part.gaps
    return result


def section(ctx: Context, background: MemoryRun | None) -> SectionResult:
    result = SectionResult("memory", "5. Memory")
    # Measured first, while the long recordings (if any) still run: it needs seconds and one core.
    churned = churn_part(ctx)
    if background is None:
        result.measured = False
        result.not_measured = ("the 10-minute recording runs in the full suite only (not with --quick or "
                               "--memory-seconds 0); the pipeline churn below runs every time")
        result.summary.append(SummaryRow("RSS growth over a 10-min recording", "not measured",
                                         goal="< 5 MB"))
        return add(result, churned)
    background.join()
    d = background.seconds
    lo, hi = min(60.0, 0.1 * d), min(90.0, 0.15 * d)
    result.method = [
        f"The three tools make a {duration_text(d)} recording of 640x480@30 YUYV side by side (separate emulated "
        "cameras), in the background while sections 2–4 and the 1080p part of section 1 run: the 20-minute "
        "budget has no room for three 10-minute recordings one after another, and 640x480 keeps their load "
        "small (about 0.1 core each). RSS is sampled once a second from /proc/PID/status; growth = mean RSS "
        f"in the last 30 s of the recording − mean RSS from {lo:g} s to {hi:g} s (after start-up); the slope "
        f"is a least-squares fit from {lo:g} s on. Peak = ru_maxrss from wait4(2). One run per tool: the "
        f"{duration_text(d)} recording is the measurement.",
    ]
    rows, growth = [], {}
    for tool in TOOLS:
        data = background.results.get(tool)
        if not data:
            rows.append([tool, "did not finish", "", "", "", ""])
            continue
        samples, done = data["samples"], data["done"]
        end_t = max((t for t, _ in samples), default=0)
        early = window_mean(samples, lo, hi)
        late = window_mean(samples, end_t - 30, end_t + 1)
        growth[tool] = (late - early) / 1024 if early is not None and late is not None else None
        slope = slope_kb_per_min(samples, lo)
        check = analyse(tool, YUYV_480, done, data["output"])
        rows.append([tool, f"{done.max_rss_kb / 1024:.1f} MB",
                     f"{early / 1024:.1f} MB" if early else "—",
                     f"{growth[tool]:+.2f} MB" if growth[tool] is not None else "—",
                     f"{slope:+.1f} KB/min" if slope is not None else "—",
                     f"{check['frames']} frames, {check['dropped']} dropped; {check['cpu_per_s']:.3f} CPU s/s"
                     if check["cpu_per_s"] else check["note"]])
        ctx.shared.setdefault("cpu480", {})[tool] = check["cpu_per_s"]
    result.body.append(table(["tool", "peak RSS", f"RSS at {lo:g}–{hi:g} s", "growth", "slope", "recording"], rows))
    peak = {tool: background.results[tool]["done"].max_rss_kb / 1024 for tool in TOOLS if tool in background.results}
    g = growth.get("camrec")
    met = g is not None and g < 5
    ratio = lambda a, b: f"{a / b:.2f}×" if a and b else "—"
    result.summary.append(SummaryRow(
        f"RSS growth over a {duration_text(d)} recording (640x480)", f"{g:+.2f} MB" if g is not None else "—",
        f"{growth.get('gst-launch', 0):+.2f} MB" if growth.get("gst-launch") is not None else "—",
        f"{growth.get('ffmpeg', 0):+.2f} MB" if growth.get("ffmpeg") is not None else "—",
        "", "", "< 5 MB", met))
    result.summary.append(SummaryRow(
        f"peak RSS, {duration_text(d)} recording (640x480)", f"{peak.get('camrec', 0):.1f} MB",
        f"{peak.get('gst-launch', 0):.1f} MB", f"{peak.get('ffmpeg', 0):.1f} MB",
        ratio(peak.get("camrec"), peak.get("gst-launch")), ratio(peak.get("camrec"), peak.get("ffmpeg")), "", None))
    if not met and g is not None:
        result.gaps.append(f"**Memory growth**: camrec's RSS grows {g:+.2f} MB over a {duration_text(d)} recording (goal < 5 MB).")
    return add(result, churned)
