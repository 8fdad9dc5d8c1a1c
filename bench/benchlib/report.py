"""Writes BENCHMARKS.md."""

from __future__ import annotations

import shlex
from pathlib import Path

from .section import Context, SectionResult, table
from .tools import MJPEG_1080, YUYV_720


def show(argv: list[str]) -> str:
    """A command line as a person would type it (gst-launch's `!` unquoted)."""
    return " ".join(a if a == "!" else shlex.quote(a) for a in argv)


def verdict(met) -> str:
    return {True: "yes", False: "**no**", None: ""}[met]


def input_text(ctx: Context) -> str:
    """Whether the run made the trim inputs (a fresh checkout) or found them cached."""
    made = ctx.facts.get("trim_inputs") or {}
    if not made:
        if not any(name == "trim" for name, _ in ctx.facts.get("phases", [])):
            return ""
        return ("; the trim inputs were cached from an earlier run (making them, on a fresh checkout, takes about "
                "250 CPU s, mostly in the background of the 1080p recordings)")
    parts = []
    for key, item in made.items():
        where = (" in the background of " + " and ".join(item["during"])) if item["during"] else ""
        parts.append(f"the {item['seconds'] / 60:g}-minute {key} trim input: {item['cpu']:.0f} CPU s of encoding in "
                     f"{item['wall']:.0f} s at the lowest CPU priority ({item['policy']}){where}; the suite then "
                     f"waited {item['waited']:.0f} s for it")
    return ", including making (not cached yet) " + "; ".join(parts)


def peers_text(ctx: Context) -> list[str]:
    tb = ctx.toolbox
    out = Path("OUT.mp4")
    gst = show(tb.gst_record(YUYV_720, "/dev/video0", 1800, out))
    changes = " and ".join(tb.gst_changes)
    ff = show(tb.ffmpeg_record(YUYV_720, "/dev/video0", 1800, out))
    cam = show(["camrec", *tb.camrec_record(YUYV_720, "/dev/video0", 60, out)[1:]])
    return [
        "## How the peers are matched",
        "",
        "The same emulated camera (`libVirtualCamera.so`, `LD_PRELOAD`) runs inside each of the three "
        "processes, with the probe library (`bench/probe/frame_probe.c`) in front of it in all three, so "
        "the camera's cost (given per mode in section 1) is in every figure alike. The 1280x720@30 YUYV "
        "recording, as run:",
        "",
        f"- camrec: `{cam}`",
        f"- gst-launch (camrec's `--print-pipeline` line): `{gst}`",
        f"- ffmpeg: `{ff}`",
        "",
        f"gst-launch runs camrec's own printed pipeline, changed only by {changes} (gst-launch has no "
        "duration limit; camrec's limit is exact by time, so both store N frames)"
        + (": at EOS an `appsink` waits for its queued buffer to be pulled, and nobody pulls it in gst-launch, "
           "so as printed it never finishes" if len(tb.gst_changes) > 1 else "") + ". "
        "ffmpeg gets x264enc's settings as camrec sets them: "
        "preset, tune, GOP (`key-int-max` → `-g`), bitrate, and x264enc's rate control (ABR with "
        "`vbv-maxrate` = bitrate and a 600 ms VBV buffer → `-maxrate`/`-bufsize`); the x264 option "
        "strings read back from the files confirm it (section 1). `-fps_mode passthrough` keeps the "
        "camera's timestamps, as GStreamer does (ffmpeg's default for MP4 would duplicate frames to "
        "constant rate). Colours: after `videoconvert` camrec asks for "
        f"`{tb.convert_caps(YUYV_720)}` (YUYV camera) and `{tb.convert_caps(MJPEG_1080)}` (MJPEG camera); "
        "ffmpeg converts to `yuv420p` (`-pix_fmt`) and otherwise keeps the camera's samples; section 1 "
        "measures the cost of camrec's conversion on its own. Container: camrec writes GStreamer's \"hybrid\" MP4 (`mp4mux "
        "fragment-duration=1000 fragment-mode=first-moov-then-finalise`: fragments of 1 s while "
        "recording, rewritten into a plain MP4 at the end). ffmpeg 5.1 has no hybrid mode; the fair "
        "match is a fragmented MP4 with a fragment per keyframe — every second, as camrec's — "
        "(`-movflags +frag_keyframe+empty_moov+default_base_moof`): the same crash safety and the same "
        "per-second writing. ffmpeg skips the final rewrite into a plain MP4, which is a (small) saving "
        "for ffmpeg, not for camrec.",
        "",
    ]


def write(ctx: Context, path: Path, sections: list[SectionResult], elapsed: float, started_utc: str,
          command: str) -> None:
    s = ctx.settings
    f = ctx.facts
    lines = ["# camrec benchmarks", ""]
    if s.quick:
        lines += ["> **Quick smoke run (`bench/run --quick`)**: a few short runs to check that the harness "
                  "works. These numbers are NOT measurements; run `bench/run` for the full suite.", ""]
    lines += [f"Made by `{command}` on {started_utc} UTC in {elapsed / 60:.1f} minutes{input_text(ctx)}. camrec against "
              "`gst-launch-1.0` and `ffmpeg` doing the same work on the same emulated camera. Every figure is "
              "median (min–max) over the runs; ratios are camrec / peer, per run where the runs are paired. "
              "How to read and rerun it: [bench/README.md](bench/README.md).", ""]
    if f.get("phases"):
        memory = any(sec.key == "memory" and sec.measured for sec in sections)
        lines += ["Time by part, in the order run"
                  + (" (the memory recordings run in the background from the start-up to their end)" if memory else "")
                  + ": " + ", ".join(f"{name} {seconds:.0f} s" for name, seconds in f["phases"]) + ".", ""]
    gaps = [g for sec in sections for g in sec.gaps]
    lines += ["## Known gaps", ""]
    if gaps:
        lines += [f"- {g}" for g in gaps]
    else:
        lines += ["- None among the figures measured in this run."]
    missing = [sec for sec in sections if not sec.measured]
    for sec in missing:
        lines.append(f"- Not measured: {sec.title} — {sec.not_measured}.")
    lines.append("")
    lines += ["## Summary", ""]
    rows = []
    for sec in sections:
        for row in sec.summary:
            rows.append([row.figure, row.camrec, row.gst, row.ffmpeg, row.vs_gst, row.vs_ffmpeg, row.goal,
                         verdict(row.met)])
    lines += [table(["figure", "camrec", "gst-launch", "ffmpeg", "camrec / gst-launch", "camrec / ffmpeg",
                     "goal", "met"], rows), ""]
    lines += ["## Machine", "",
              f"- {f.get('cores')} cores, {f.get('cpu')}, {f.get('memory')} RAM, Linux {f.get('kernel')} "
              "(a shared machine: other people build and test on it)",
              f"- GStreamer {f.get('gstreamer')} (x264enc {f.get('x264enc')}), ffmpeg {f.get('ffmpeg')}, "
              f"{f.get('camrec')} at {f.get('commit')}" + (f" ({ctx.toolbox.build_note})" if ctx.toolbox.build_note else ""),
              f"- load average before: {f.get('load_before')}, after: {f.get('load_after')}",
              f"- every measured process ran at nice {ctx.nice} (the same for the three tools) so that "
              "other users' builds disturb it less" if ctx.nice else "- measured processes ran at the default nice",
              ""]
    lines += peers_text(ctx)
    for sec in sections:
        lines += [f"## {sec.title}", ""]
        if not sec.measured:
            lines += [f"Not measured: {sec.not_measured}.", ""]
        lines += [p + "\n" for p in sec.method]
        lines += [b + "\n" for b in sec.body]
    lines += ["## Rerun", "",
              "```sh", "bench/run            # full suite, under 20 minutes on 2 cores; writes BENCHMARKS.md",
              "bench/run --quick    # smoke run, a few minutes",
              "bench/run --only segments --output /tmp/segments.md   # section 7 alone, about an hour",
              "BENCH_BEFORE_CAMREC=/path/to/older/camrec bench/run --only binary --output /tmp/binary.md   # section 8 against an older build",
              "bench/run --only picture --output /tmp/picture.md     # section 9 alone, about 3.5 minutes",
              "bench/run --only encoding --output /tmp/encoding.md   # section 10 alone, about 11 minutes",
              "bench/run --only footprint --output /tmp/footprint.md # section 11 alone, about 2.5 minutes",
              "bench/run --only sound --output /tmp/sound.md         # section 12 alone, about 17 minutes (--length 180: about 10)",
              "```", "",
              "Everything the run wrote (movies, logs, each command line) is under `bench/out/` (not committed).", ""]
    path.write_text("\n".join(lines))
