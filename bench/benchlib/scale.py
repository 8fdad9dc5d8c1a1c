"""6. Scale: how many concurrent 640x480@30 recordings run with zero drops."""

from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor

from . import container, profile
from .common import Child, load_average, log
from .recording import analyse
from .startup import read_probe, read_reqbufs
from .section import Context, SectionResult, SummaryRow, part_rows, table
from .tools import TOOLS, YUYV_480

GOAL_RATIO = 1.25  # issue 14: concurrent recordings against gst-launch running the same pipeline
CONTAINER_CPUS = 1.0  # the container part: every recording of a level in one cgroup, `docker run --cpus=1`
LAG_LIMIT = 1.0   # seconds a recording may end after the camera's last frame (draining, finalising)


def level(ctx: Context, tool: str, count: int, box: "container.CpuLimit | None" = None,
          seconds: float | None = None) -> dict:
    """count recordings of one tool at once, each from its own emulated camera device, of `seconds`
    (default: the section's length); inside the CPU-limited cgroup `box` when given (every
    recording in the same one, as in one container)."""
    seconds = seconds or ctx.settings.scale_seconds
    run_dir = ctx.dir(f"scale/{'box-' if box else ''}{tool}-{count}"
                      + (f"-{seconds:g}s" if seconds != ctx.settings.scale_seconds else ""))
    load = load_average()
    if box:
        box.reset()
    children = []
    for i in range(count):
        device = f"/dev/video{i}"
        output = run_dir / f"{tool}-{i}.mp4"
        probe_log = run_dir / f"{tool}-{i}.probe"
        probe_log.unlink(missing_ok=True)
        argv = ctx.toolbox.record_command(tool, YUYV_480, device, seconds, output)
        if box:
            argv = box.wrap(argv)
        children.append((Child(argv, ctx.toolbox.env(YUYV_480.vcam(device), probe_log, probe_max=1), run_dir,
                               f"{tool}-{i}", nice=ctx.nice, timeout=seconds * 4 + 60), output, probe_log))
    finished = [(child.wait(), output, probe_log) for child, output, probe_log in children]
    throttled = box.throttled() if box else None
    with ThreadPoolExecutor(max_workers=2) as pool:
        runs = list(pool.map(lambda item: analyse(tool, YUYV_480, item[0], item[1], light=True), finished))
    # Real time: how long after the camera delivered its last frame each recording ended. A tool
    # that falls behind hides it in its queue for a while (GStreamer's holds 2 s) and ends late;
    # a longer recording would lose frames.
    lags = []
    for done, _, probe_log in finished:
        streamons, _ = read_probe(probe_log)
        if streamons:
            lags.append(done.started_at + done.wall - (streamons[-1] + seconds))
    lag = max(lags) if lags else float("inf")
    buffers = read_reqbufs(finished[0][2])
    dropped = sum(r["dropped"] or 0 for r in runs)
    failed = sum(1 for r in runs if r["rc"] != 0 or r["dropped"] is None)
    if tool == "camrec":
        dropped = max(dropped, sum(r.get("reported_dropped") or 0 for r in runs))
    ok = dropped == 0 and failed == 0 and lag <= LAG_LIMIT
    log(f"scale: {tool} × {count}{' in ' + box.name if box else ''}: {dropped} dropped, {failed} failed, worst end "
        f"{lag:.2f} s after the camera's last frame{'' if throttled is None else f', throttled {throttled} times'} → "
        f"{'pass' if ok else 'fail'}")
    return {"count": count, "ok": ok, "dropped": dropped, "failed": failed, "load": load, "lag": lag, "buffers": buffers,
            "cpu": sum(r["cpu"] for r in runs), "throttled": throttled}


def profile_seconds(ctx: Context) -> float:
    return min(4.0, ctx.settings.scale_seconds)


def profile_level(ctx: Context, tool: str, count: int) -> profile.Profile:
    """count recordings of one tool at once under one perf (a shorter, extra trial, not measured)."""
    seconds = profile_seconds(ctx)
    run_dir = ctx.dir(f"scale/profile-{tool}-{count}")
    log(f"scale: profiling {count} {tool} recordings at once with perf…")
    jobs = [(ctx.toolbox.record_command(tool, YUYV_480, f"/dev/video{i}", seconds, run_dir / f"{tool}-{i}.mp4"),
             ctx.toolbox.env(YUYV_480.vcam(f"/dev/video{i}"))) for i in range(count)]
    return profile.profile(jobs, run_dir, tool, f"{tool} × {count}", nice=ctx.nice, timeout=seconds * 4 + 60)


def describe(l: dict) -> str:
    outcome = "ok" if l["ok"] else (f"{l['dropped']} lost" + (f", {l['failed']} failed" if l["failed"] else "")
                                    + (f", ended {l['lag']:.1f} s late" if l["lag"] > LAG_LIMIT else ""))
    throttled = f", throttled {l['throttled']}×" if l.get("throttled") is not None else ""
    return f"{l['count']}: {outcome} (load {l['load'].split()[0]}{throttled})"


def search(ctx: Context, estimates: dict[str, int], cap: int, box: "container.CpuLimit | None" = None) -> list["Search"]:
    """Each tool's largest passing count; the tools' searches interleaved, one level of each in turn."""
    searches = [Search(tool, estimates[tool], cap) for tool in TOOLS]
    while not all(sr.done for sr in searches):
        for sr in searches:
            if not sr.done:
                sr.record(level(ctx, sr.tool, sr.next, box))
    return searches


def rows_of(searches: list["Search"]) -> tuple[list[list[str]], dict[str, int | None]]:
    rows = [[sr.tool, str(sr.good), ", ".join(describe(sr.tried[k]) for k in sorted(sr.tried))] for sr in searches]
    buffers = {sr.tool: next((l["buffers"] for l in sr.tried.values() if l["buffers"]), None) for sr in searches}
    for row, sr in zip(rows, searches):
        row.insert(2, str(buffers[sr.tool] or "?"))
    return rows, buffers


class Search:
    """The largest count that passes for one tool: from the estimate, up by half while it
    passes, then bisect between the largest pass and the smallest failure."""

    def __init__(self, tool: str, estimate: int, cap: int):
        self.tool, self.cap = tool, cap
        self.good, self.bad = 0, cap + 1
        self.next = max(1, min(cap, estimate))
        self.tried: dict[int, dict] = {}

    @property
    def done(self) -> bool:
        return self.next is None

    def record(self, outcome: dict) -> None:
        n = outcome["count"]
        self.tried[n] = outcome
        if outcome["ok"]:
            self.good = n
        else:
            self.bad = n
        if self.bad - self.good <= 1:
            self.next = None
        elif self.bad > self.cap:
            following = min(self.cap, n + max(2, n // 2))
            self.next = None if following == self.good else following
        else:
            self.next = (self.good + self.bad) // 2


def section(ctx: Context) -> SectionResult:
    started = time.monotonic()
    result = SectionResult("scale", "6. Scale")
    # BENCH_SCALE_PARTS=overload runs only the overload part (issue 37 item 3), at the levels
    # BENCH_OVERLOAD_LEVELS (e.g. "26,30"; default: the breaking point the search finds + 3 and + 8).
    parts = set((os.environ.get("BENCH_SCALE_PARTS") or "search,overload").split(","))
    best = None
    if "search" in parts:
        best = search_part(ctx, result)
    if "overload" in parts:
        part_rows(result, "overload", lambda: overload(ctx, result, best))
    result.seconds = time.monotonic() - started
    return result


def search_part(ctx: Context, result: SectionResult) -> dict[str, int]:
    """The most concurrent recordings each tool sustains, on the machine and in a container."""
    cpu480 = ctx.shared.get("cpu480", {})
    result.method = [
        f"N recordings of 640x480@30 YUYV at once, each from its own emulated camera device, "
        f"{ctx.settings.scale_seconds:g} s each; a count passes when every recording exits cleanly, "
        "loses no frame (camera stamps; for camrec also its own count) and ends at most "
        f"{LAG_LIMIT:g} s after the camera delivered its last frame (STREAMON time from the probe + the "
        "duration): a later end means it fell behind real time, hidden by its queue, and a longer "
        "recording would lose frames. The three tools' searches are interleaved (one level of each in "
        "turn) so that they see the same changes of the machine's load. Search per tool: start from 1.8 cores / the "
        "tool's CPU per 640x480 recording (measured in section 5, else 8), go up by half while it "
        "passes, then bisect. The machine is shared "
        "and the figure moves with its load: the 1-minute load average before each level is shown; it also "
        "counts the suite's own recordings of the level before, still decaying, so only a value well above "
        "the previous level's count means other users were busy.",
    ]
    estimate = lambda cores: {tool: int(cores / cpu480[tool]) if cpu480.get(tool) else int(cores * 4.5) for tool in TOOLS}
    searches = search(ctx, estimate(1.8), ctx.settings.scale_max)
    best = {sr.tool: sr.good for sr in searches}
    rows, buffers = rows_of(searches)
    result.body.append(table(["tool", "most recordings that pass", "camera buffers (VIDIOC_REQBUFS)",
                              "levels tried (load average before)"], rows))
    ratio = lambda a, b: f"{a / b:.2f}×" if a and b else "—"
    # Issue 14: camrec's deeper camera queue must carry it well past the same pipeline in gst-launch.
    met = best["camrec"] >= GOAL_RATIO * best["gst-launch"]
    result.summary.append(SummaryRow(
        "concurrent 640x480@30 recordings with zero drops", str(best["camrec"]), str(best["gst-launch"]),
        str(best["ffmpeg"]), ratio(best["camrec"], best["gst-launch"]), ratio(best["camrec"], best["ffmpeg"]),
        f"≥ {GOAL_RATIO:g}× gst-launch", met))
    why = (f" Camera buffers (VIDIOC_REQBUFS): camrec {buffers['camrec']}, gst-launch {buffers['gst-launch']}, ffmpeg "
           f"{buffers['ffmpeg']}: when a capture thread waits longer than its queued buffers last for a CPU, the "
           "camera has no buffer and the frame is lost."
           " Each level is a single trial on a shared machine, so a difference of a few recordings between "
           "tools is within its noise (the load averages are in section 6).") if all(
        buffers.get(tool) for tool in ("camrec", "gst-launch", "ffmpeg")) else ""
    profiles = []
    if ctx.profiling(not met):
        count = max(1, best["camrec"])
        profiles = [profile_level(ctx, tool, count) for tool in ("camrec", "gst-launch")]
        seconds = profile_seconds(ctx)
        result.body.append(f"### Profile: {count} recordings at once, camrec against gst-launch\n\n"
                           + ("Taken to test the profiling (the figure meets its goal). " if met else "")
                           + f"One extra trial per tool of camrec's most recordings that pass, {seconds:g} s each, "
                           "all under one perf; gst-launch runs the same pipeline. " + profile.tables(profiles))
    if not met:
        gap = (f"**Scale**: camrec sustains {best['camrec']} concurrent 640x480 recordings, gst-launch "
               f"{best['gst-launch']} with the same pipeline (levels and load in section 6).{why}")
        if profiles and all(p.ok for p in profiles):
            cam, gst = profiles
            gap += (f" Profile of {count} recordings at once (perf, one extra trial each, tables "
                    f"in section 6): camrec used {cam.cpu_seconds:.2f} CPU s, {profile.describe(cam)}; gst-launch "
                    f"{gst.cpu_seconds:.2f} CPU s, {profile.describe(gst)}.")
        elif profiles:
            gap += " No profile: " + "; ".join(p.error for p in profiles if not p.ok) + "."
        result.gaps.append(gap)
    elif best["camrec"] < best["ffmpeg"]:
        result.gaps.append(f"**Scale** (no goal set, listed because it is a loss): camrec sustains {best['camrec']} "
                           f"concurrent 640x480 recordings, ffmpeg {best['ffmpeg']} (gst-launch {best['gst-launch']}).{why}")
    contained(ctx, result, estimate)
    return best


def overload(ctx: Context, result: SectionResult, best: dict[str, int] | None) -> None:
    """Issue 37 item 3: past the breaking point, camrec must lose at most gst-launch's frames
    and end within LAG_LIMIT of its limit: levels beyond the most recordings camrec sustains,
    camrec and gst-launch (camrec's pipeline) in turn at each. BENCH_OVERLOAD_SECONDS sets the
    recordings' length (default: the section's): in runs longer than gst-launch's 2-s queue
    can absorb, its camera loses frames too."""
    seconds = float(os.environ.get("BENCH_OVERLOAD_SECONDS") or ctx.settings.scale_seconds)
    given = os.environ.get("BENCH_OVERLOAD_LEVELS")
    if given:
        levels = [int(n) for n in given.split(",") if n.strip()]
    elif best and best.get("camrec"):
        levels = [best["camrec"] + 3, best["camrec"] + 8]
    else:
        levels = [26, 32]
    levels = [n for n in levels if 0 < n <= 63]
    tools = ("camrec", "gst-launch")
    data: dict[int, dict[str, dict]] = {}
    for n in levels:
        data[n] = {}
        for tool in (tools if n % 2 == 0 else tuple(reversed(tools))):
            data[n][tool] = level(ctx, tool, n, seconds=seconds)
    result.body.append("### Overload: past the breaking point")
    result.body.append(
        f"Levels beyond the most recordings camrec sustains ({', '.join(map(str, levels))} at once, "
        f"{seconds:g} s each, one tool at a time, the same 640x480@30 YUYV cameras): the frames "
        "each tool lost in all (camera stamps: camrec's are left out evenly before its encoder once it is 1.5 s "
        "behind, gst-launch's are lost by the camera in runs once its 2-s queue is full), the CPU all its recordings "
        "used, and how late the worst "
        f"recording ended after the camera's last frame (goal for camrec: at most {LAG_LIMIT:g} s, and no more "
        "frames lost than gst-launch). gst-launch stops after as many buffers as the length holds "
        "(`num-buffers`): where its camera loses frames it records on past its camera time, so its losses, CPU and "
        "end span a longer time than camrec's, which stops at its camera time.")
    rows = []
    for n in levels:
        c, g = data[n]["camrec"], data[n]["gst-launch"]
        rows.append([str(n), str(c["dropped"]), str(g["dropped"]), f"{c['lag']:.2f} s", f"{g['lag']:.2f} s",
                     f"{c['cpu']:.1f} / {g['cpu']:.1f} s", f"{c['failed']} / {g['failed']}", f"{c['load']} / {g['load']}"])
    result.body.append(table(["recordings at once", "camrec frames lost", "gst-launch frames lost",
                              "camrec worst end after the last frame", "gst-launch worst end", "CPU camrec / gst-launch",
                              "failed camrec / gst-launch", "load before camrec / gst-launch"], rows))
    for n in levels:
        c, g = data[n]["camrec"], data[n]["gst-launch"]
        fewer = c["failed"] == 0 and c["dropped"] <= g["dropped"]
        on_time = c["failed"] == 0 and c["lag"] <= LAG_LIMIT
        result.summary.append(SummaryRow(
            f"overload: frames lost by {n} concurrent 640x480@30 recordings of {seconds:g} s",
            str(c["dropped"]), str(g["dropped"]), "not run", goal="≤ gst-launch (issue 37)", met=fewer))
        result.summary.append(SummaryRow(
            f"overload: the worst of {n} recordings' end after the camera's last frame",
            f"{c['lag']:.2f} s", f"{g['lag']:.2f} s", "not run", goal=f"≤ {LAG_LIMIT:g} s (issue 37)", met=on_time))
        if not fewer or not on_time:
            result.gaps.append(
                f"**Overload** (section 6, {n} recordings of {seconds:g} s): camrec lost {c['dropped']} frames (gst-launch "
                f"{g['dropped']}) and its worst recording ended {c['lag']:.2f} s after the camera's last frame "
                f"(goal: at most gst-launch's frames, within {LAG_LIMIT:g} s).")


def contained(ctx: Context, result: SectionResult, estimate) -> None:
    """The same search with every recording of a level in one CPU-limited cgroup (a container)."""
    heading = f"### In a container limited to {CONTAINER_CPUS:g} CPU"
    box, why_not = container.CpuLimit.make(CONTAINER_CPUS)
    if box is None:
        result.body.append(f"{heading}\n\nNot measured: {why_not}.")
        return
    try:
        searches = search(ctx, estimate(CONTAINER_CPUS * 0.9), ctx.settings.scale_max, box)
    finally:
        box.remove()
    best = {sr.tool: sr.good for sr in searches}
    rows, buffers = rows_of(searches)
    result.body.append(
        f"{heading}\n\nThe same search, with every recording of a level in one cgroup whose CFS quota is "
        f"{CONTAINER_CPUS:g} CPU per {container.PERIOD_US // 1000} ms period, as `docker run --cpus={CONTAINER_CPUS:g}` "
        "(or systemd's `CPUQuota=`) sets it. Once the group has used its quota in a period, none of its threads "
        "runs until the next one, the capture threads included however little they need: CPU starvation that "
        "a thread's priority cannot escape, where a camera's queue of buffers decides whether frames are lost. "
        "The levels show how often the group was throttled (periods that ran out of quota).\n\n"
        + table(["tool", "most recordings that pass", "camera buffers (VIDIOC_REQBUFS)",
                 "levels tried (load average before, periods throttled)"], rows))
    ratio = lambda a, b: f"{a / b:.2f}×" if a and b else "—"
    met = best["camrec"] >= GOAL_RATIO * best["gst-launch"]
    result.summary.append(SummaryRow(
        f"concurrent 640x480@30 recordings with zero drops, in a container limited to {CONTAINER_CPUS:g} CPU",
        str(best["camrec"]), str(best["gst-launch"]), str(best["ffmpeg"]), ratio(best["camrec"], best["gst-launch"]),
        ratio(best["camrec"], best["ffmpeg"]), f"≥ {GOAL_RATIO:g}× gst-launch", met))
    if not met:
        result.gaps.append(
            f"**Scale in a container** (section 6, {CONTAINER_CPUS:g} CPU): camrec sustains {best['camrec']} concurrent "
            f"640x480 recordings, gst-launch {best['gst-launch']}, ffmpeg {best['ffmpeg']} (camera buffers "
            f"{buffers['camrec']}, {buffers['gst-launch']}, {buffers['ffmpeg']}; levels in section 6).")
