"""Section 17: contact sheets (issue 33 item 4): `camrec sheet` of a one-hour movie against ffmpeg's
select and tile filters doing the same grid, exactly (every frame decoded, the frames picked by
number) and from keyframes alone (`-skip_frame nokey`, the nearest ffmpeg comes to camrec's
keyframe-when-close-enough)."""

from __future__ import annotations

import time
from pathlib import Path

import os
import shutil

from .common import Child, log, median, run_quiet
from .section import Context, SectionResult, SummaryRow, table

HOUR_FRAMES = 30 * 3600
TILES, COLUMNS, WIDTH = 24, 6, 320


def one_hour_movie(ctx: Context) -> Path:
    """A 1-hour 1280x720 H.264 movie at 30 fps with a keyframe every second, cached in bench/out:
    a 60-s encode of a moving test picture, repeated without re-encoding."""
    movie = ctx.out / "sheet-input-1h.mp4"
    if movie.exists():
        return movie
    piece = ctx.out / "sheet-piece-60s.mp4"
    run_quiet(["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30:duration=60",
               "-c:v", "libx264", "-preset", "veryfast", "-g", "30", "-pix_fmt", "yuv420p", piece])
    run_quiet(["ffmpeg", "-nostdin", "-v", "error", "-y", "-stream_loop", "59", "-i", piece, "-c", "copy", movie])
    return movie


def timed(argv: list, env: dict, run_dir: Path, name: str, runs: int, timeout: float) -> list[tuple[float, int]]:
    """(wall seconds, peak RSS KB) of `runs` runs after one warm-up run (GNU time forks the tool)."""
    gnu_time = shutil.which("time", path="/usr/bin") or "/usr/bin/time"
    out = []
    for r in range(runs + 1):
        rss_file = run_dir / f"{name}-{r}.maxrss"
        done = Child([gnu_time, "-f", "%M", "-o", rss_file, *argv], env, run_dir, f"{name}-{r}", timeout=timeout).wait()
        if r == 0 or done.returncode != 0:
            continue
        try:
            out.append((done.wall, int(rss_file.read_text().split()[-1])))
        except (OSError, ValueError, IndexError):
            continue
    return out


def section(ctx: Context) -> SectionResult:
    started = time.monotonic()
    result = SectionResult("sheet", "17. Contact sheets")
    movie = one_hour_movie(ctx)
    run_dir = ctx.dir("sheet")
    runs = max(ctx.settings.runs, 3)
    env = dict(os.environ, NO_COLOR="1")
    step = HOUR_FRAMES // TILES
    scale = f"scale={WIDTH}:-2"
    grid = f"tile={COLUMNS}x{TILES // COLUMNS}"
    tools = {
        "camrec": [ctx.toolbox.camrec, "sheet", "--count", str(TILES), "--columns", str(COLUMNS), "--width", str(WIDTH),
                   "--force", "-o", run_dir / "camrec.jpg", movie],
        "ffmpeg exact": ["ffmpeg", "-nostdin", "-v", "error", "-y", "-i", movie, "-vf",
                         f"select='eq(mod(n+{step // 2}\\,{step})\\,0)',{scale},{grid}", "-frames:v", "1", run_dir / "ffmpeg.jpg"],
        "ffmpeg keyframes": ["ffmpeg", "-nostdin", "-v", "error", "-y", "-skip_frame", "nokey", "-i", movie, "-vf",
                             f"select='isnan(prev_selected_t)+gte(t-prev_selected_t\\,{3600 / TILES - 0.5})',{scale},{grid}",
                             "-frames:v", "1", run_dir / "ffmpeg-key.jpg"],
    }
    figures = {}
    for name, argv in tools.items():
        log(f"sheet: {name}")
        # ffmpeg's exact grid decodes the whole hour: once, after its warm-up run.
        measured = timed(argv, env, run_dir, name.replace(" ", "-"), 1 if name == "ffmpeg exact" else runs, timeout=1800)
        figures[name] = (median([w for w, _ in measured]) if measured else None,
                         median([k / 1024 for _, k in measured]) if measured else None)
    result.method = [
        f"A 1-hour 1280x720 H.264 movie at 30 fps (a keyframe every second; a 60-s encode of ffmpeg's testsrc2 "
        f"repeated without re-encoding) made into a {COLUMNS}x{TILES // COLUMNS} sheet of {TILES} tiles {WIDTH} pixels "
        "wide: camrec sheet (the nearest keyframe stands for each moment when it is within a quarter of the step, "
        "else the exact frame is decoded; captions drawn), ffmpeg decoding every frame and picking one in each "
        f"{step} by number (`select`, `tile`: the exact frames, no captions), and ffmpeg decoding keyframes alone "
        "(`-skip_frame nokey`, one every 150 s). Wall time from fork to exit and peak RSS (GNU time), median of "
        f"{runs} runs after a warm-up run."
    ]
    rows = []
    for name, (wall, rss) in figures.items():
        rows.append([name, f"{wall:.2f} s" if wall is not None else "failed", f"{rss:.0f} MB" if rss is not None else "—"])
    result.body = [table(["tool", "wall time", "peak RSS"], rows)]
    camrec_wall, camrec_rss = figures["camrec"]
    exact_wall, _ = figures["ffmpeg exact"]
    key_wall, key_rss = figures["ffmpeg keyframes"]
    if camrec_wall is not None and key_wall is not None:
        result.summary.append(SummaryRow(
            figure=f"sheet of a 1-h movie, {TILES} tiles", camrec=f"{camrec_wall:.2f} s",
            ffmpeg=f"{key_wall:.2f} s (keyframes), {exact_wall:.1f} s (exact)" if exact_wall else f"{key_wall:.2f} s",
            vs_ffmpeg=f"{camrec_wall / key_wall:.2f}× keyframes", goal="≤ ffmpeg keyframes-only",
            met=camrec_wall <= key_wall * 1.05))
    result.seconds = time.monotonic() - started
    return result
