"""Section 18: export and time-lapse (issue 33 items 3 and 5). A series of sixty 1-minute segments (one
hour, 1280x720 H.264 at 30 fps, a keyframe every second, each segment stamped with its capture time the
way iPhones and exiftool write it) exported from 00:00:10.250 to 00:59:50.500 by `camrec export`
(frame-exact: the edges re-encoded) and by `ffmpeg -f concat -c copy` with the same times (the way people
join segments by hand: it starts at a keyframe, so its error is counted in frames); and a x60 time-lapse
of the hour by `camrec export --speed 60` (one keyframe every 2 s, only keyframes decoded) and by ffmpeg
decoding everything (`-vf setpts=PTS/60`, `-r 30`, libx264 veryfast)."""

from __future__ import annotations

import os
import time
from pathlib import Path

from .common import log, median, run_quiet
from .section import Context, SectionResult, SummaryRow, table
from .sheet import one_hour_movie, timed

SEGMENTS = 60
FROM_S, TO_S = 10.25, 3590.5
FPS = 30


def series(ctx: Context) -> Path:
    """The sixty segments in bench/out/export-series (made once): the sheet's 60-s piece, copied."""
    folder = ctx.out / "export-series"
    done = folder / ".complete"
    if done.exists():
        return folder
    one_hour_movie(ctx)  # makes the 60-s piece too
    piece = ctx.out / "sheet-piece-60s.mp4"
    folder.mkdir(parents=True, exist_ok=True)
    for index in range(SEGMENTS):
        path = folder / f"cam-{index + 1:04d}.mp4"
        path.write_bytes(piece.read_bytes())
        minute = index
        run_quiet(["exiftool", "-q", "-overwrite_original",
                   f"-Keys:CreationDate=2026:12:01 10:{minute:02d}:00.000+00:00", path])
    done.write_text("ok\n")
    return folder


def frame_count(path: Path) -> int | None:
    """Packets of the first video stream (ffprobe, no decoding)."""
    done = run_quiet(["ffprobe", "-v", "error", "-select_streams", "v:0", "-count_packets", "-show_entries",
                      "stream=nb_read_packets", "-of", "csv=p=0", path], check=False)
    try:
        return int(done.stdout.strip().splitlines()[0])
    except (ValueError, IndexError, AttributeError):
        return None


def section(ctx: Context) -> SectionResult:
    started = time.monotonic()
    result = SectionResult("export", "18. Export and time-lapse")
    folder = series(ctx)
    run_dir = ctx.dir("export")
    runs = max(ctx.settings.runs, 3)
    env = dict(os.environ, NO_COLOR="1", TZ="UTC")
    concat = run_dir / "list.txt"
    concat.write_text("".join(f"file '{folder / f'cam-{i + 1:04d}.mp4'}'\n" for i in range(SEGMENTS)))
    start = f"10:00:{FROM_S:06.3f}"
    end_minute, end_second = divmod(TO_S, 60)
    end = f"10:{int(end_minute):02d}:{end_second:06.3f}"
    tools = {
        "camrec export": [ctx.toolbox.camrec, "export", "--utc", "--from", start, "--to", end, "--force", "-o",
                          run_dir / "camrec.mp4", folder / "cam.mp4"],
        "ffmpeg concat copy": ["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "concat", "-safe", "0", "-ss", str(FROM_S),
                               "-i", concat, "-t", str(TO_S - FROM_S), "-c", "copy", run_dir / "ffmpeg.mp4"],
        "camrec time-lapse x60": [ctx.toolbox.camrec, "export", "--speed", "60", "--force", "-o", run_dir / "camrec-x60.mp4",
                                  folder / "cam.mp4"],
        "ffmpeg time-lapse x60": ["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "concat", "-safe", "0", "-i", concat,
                                  "-vf", "setpts=PTS/60", "-r", str(FPS), "-an", "-c:v", "libx264", "-preset", "veryfast",
                                  run_dir / "ffmpeg-x60.mp4"],
    }
    figures = {}
    for name, argv in tools.items():
        log(f"export: {name}")
        slow = name == "ffmpeg time-lapse x60"
        measured = timed(argv, env, run_dir, name.replace(" ", "-"), 1 if slow else runs, timeout=3600)
        figures[name] = (median([w for w, _ in measured]) if measured else None,
                         median([k / 1024 for _, k in measured]) if measured else None)
    expected = round(TO_S * FPS) - round(FROM_S * FPS)  # frames captured in [from, to) on the 30-fps grid
    counts = {
        "camrec export": frame_count(run_dir / "camrec.mp4"),
        "ffmpeg concat copy": frame_count(run_dir / "ffmpeg.mp4"),
        "camrec time-lapse x60": frame_count(run_dir / "camrec-x60.mp4"),
        "ffmpeg time-lapse x60": frame_count(run_dir / "ffmpeg-x60.mp4"),
    }
    lapse_expected = (SEGMENTS * 60 * FPS) // 60
    result.method = [
        f"A series of {SEGMENTS} one-minute segments (1280x720 H.264 at 30 fps, a keyframe every second: the sheet "
        "section's 60-s encode of ffmpeg's testsrc2, copied; each stamped with its capture time by exiftool). "
        f"Export of {FROM_S} s to {TO_S} s of the hour ({expected} frames on the 30-fps grid, across "
        f"{SEGMENTS - 1} boundaries): camrec export (frame-exact: the frames before the first keyframe re-encoded) "
        "against ffmpeg's concat demuxer with -ss/-t and -c copy (it starts at the keyframe before -ss). "
        "A x60 time-lapse of the hour: camrec export --speed 60 (a frame every 2 s: the nearest keyframe, only "
        "keyframes decoded) against ffmpeg decoding every frame (setpts=PTS/60, -r 30, libx264 veryfast). "
        f"Wall time from fork to exit and peak RSS (GNU time), median of {runs} runs after a warm-up run "
        "(ffmpeg's time-lapse: one run after the warm-up); frames counted by ffprobe."
    ]
    rows = []
    for name, (wall, rss) in figures.items():
        count = counts[name]
        want = lapse_expected if "time-lapse" in name else expected
        error = "—" if count is None else f"{count - want:+d}"
        rows.append([name, f"{wall:.2f} s" if wall is not None else "failed", f"{rss:.0f} MB" if rss is not None else "—",
                     str(count) if count is not None else "—", error])
    result.body = [table(["tool", "wall time", "peak RSS", "frames", "frames off"], rows)]
    camrec_wall, _ = figures["camrec export"]
    ffmpeg_wall, _ = figures["ffmpeg concat copy"]
    if camrec_wall is not None and ffmpeg_wall is not None:
        ffmpeg_error = (counts["ffmpeg concat copy"] or 0) - expected
        result.summary.append(SummaryRow(
            figure=f"export of 1 h across {SEGMENTS} segments", camrec=f"{camrec_wall:.2f} s, {(counts['camrec export'] or 0) - expected:+d} frames",
            ffmpeg=f"{ffmpeg_wall:.2f} s, {ffmpeg_error:+d} frames", vs_ffmpeg=f"{camrec_wall / ffmpeg_wall:.2f}×",
            goal="≤ 1.5× ffmpeg concat, 0 frames off",
            met=camrec_wall <= 1.5 * ffmpeg_wall and counts["camrec export"] == expected))
    lapse_wall, _ = figures["camrec time-lapse x60"]
    ff_lapse, _ = figures["ffmpeg time-lapse x60"]
    if lapse_wall is not None and ff_lapse is not None:
        result.summary.append(SummaryRow(
            figure="time-lapse x60 of 1 h", camrec=f"{lapse_wall:.2f} s", ffmpeg=f"{ff_lapse:.2f} s",
            vs_ffmpeg=f"{lapse_wall / ff_lapse:.2f}×", goal="≤ ffmpeg", met=lapse_wall <= ff_lapse))
    result.seconds = time.monotonic() - started
    return result
