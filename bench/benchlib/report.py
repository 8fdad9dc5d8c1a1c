"""BENCHMARKS.md, made from the results files (bench/results/*.json), and each run's section notes.

Run on its own it regenerates BENCHMARKS.md from bench/results/ (see bench/README.md):

    bench/report                 # or: cd bench && python3 -m benchlib.report
    bench/report --check         # exit 1 when BENCHMARKS.md is not what the results make

The report is a function of the results files alone (no clock, no machine), so the same files
always make the same bytes.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import sys
from pathlib import Path

from . import results
from .section import Context, SectionResult, table


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
    from .tools import MJPEG_1080, YUYV_720
    tb = ctx.toolbox
    out = Path("OUT.mp4")
    gst = show(tb.gst_record(YUYV_720, "/dev/video0", 1800, out))
    changes = " and ".join(tb.gst_changes)
    ff = show(tb.ffmpeg_record(YUYV_720, "/dev/video0", 1800, out))
    cam = show(["camrec", *tb.camrec_record(YUYV_720, "/dev/video0", 60, out)[1:]])
    return [
        "## How the peers are matched (all sections)",
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


# ---- a run's section notes (bench/results/<run>/NN-key.md) --------------------------------

def shown_time(stamp: str) -> str:
    """'2026-11-29T23:03Z' → '2026-11-29 23:03'."""
    return stamp.replace("T", " ").rstrip("Z")


def run_line(run: dict) -> str:
    """Who made a run, when and where, in one sentence."""
    m = run.get("machine", {})
    minutes = f", {run['minutes']:g} minutes" if run.get("minutes") is not None else ""
    commit = run.get("commit") or "an unknown commit"
    if run.get("commit_note"):
        commit += f" ({run['commit_note']})"
    return (f"`{run['command']}` on {shown_time(run['started'])} UTC{minutes}, {run.get('camrec') or 'camrec'} at "
            f"{commit}; {m.get('cores', '?')} cores, {m.get('cpu', '?')}, {m.get('memory', '?')} RAM, Linux "
            f"{m.get('kernel', '?')}; {load_text(run)}.")


def load_text(run: dict) -> str:
    if not run.get("load_before") and not run.get("load_after"):
        return "load average not recorded"
    return f"load average before {run.get('load_before') or '?'}, after {run.get('load_after') or '?'}"


def section_notes(run: dict, sec: SectionResult, path: Path, summary: Path, extra: list[str] | None = None) -> str:
    """A section's notes as one run wrote them to `path`: method, tables, profiles, the long text of
    its gaps; `summary` is the report that links here."""
    summary_link = os.path.relpath(summary, path.parent).replace(os.sep, "/")
    lines = [f"# {sec.title}", "", f"From {run_line(run)} Figures: [{run['id']}.json](../{run['id']}.json); "
             f"the summary: [{summary.name}]({summary_link}).", ""]
    if run.get("note"):
        lines += [f"This run: {run['note']}.", ""]
    if run.get("phases") and run["sections"] and run["sections"][0]["key"] == sec.key:
        lines += ["Time by part, in the order run: "
                  + ", ".join(f"{p['part']} {p['seconds']} s" for p in run["phases"]) + ".", ""]
    if run.get("quick"):
        lines += ["> Quick smoke run (`bench/run --quick`): these numbers are NOT measurements.", ""]
    if not sec.measured:
        lines += [f"Not measured: {sec.not_measured}.", ""]
    lines += [p + "\n" for p in sec.method]
    lines += [b + "\n" for b in sec.body]
    lines += [x + "\n" for x in (extra or [])]
    if sec.gaps:
        lines += ["## Known gaps", ""] + [f"- {g}" for g in sec.gaps] + [""]
    return "\n".join(lines).rstrip("\n") + "\n"


def gap_line(text: str) -> str:
    """A gap's line in BENCHMARKS.md from its full text: the text when short, else its first
    sentence (cut at a word when even that is long); the full text stays in the section notes."""
    limit = results.GAP_LINE_MAX - 40   # room for the link to the notes
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    head, depth = text, 0
    for index, char in enumerate(text):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0 and char in ".;" and text[index + 1:index + 2] in (" ", "") and index > 2:
            head = text[:index] + "."
            break
    if len(head) > limit:
        head = head[:limit - 1].rsplit(" ", 1)[0].rstrip(",;:") + "…"
        if head.count("**") % 2:
            head = head.replace("**", "", 1)
    return head


# ---- BENCHMARKS.md ------------------------------------------------------------------------

RERUN = [
    "```sh",
    "bench/run                      # the default sections (1-6, 8): under 20 minutes on 2 cores",
    "bench/run --only trim          # one section again: its rows replace the older ones here",
    "bench/run --all                # every section, the opt-in ones too: about 137 minutes",
    "bench/run --quick              # a smoke run: its results go to bench/out/, not here",
    "bench/report                   # this file again from bench/results/ (bench/report --check: is it current?)",
    "```",
]


def rendered_length(line: str) -> int:
    """A markdown line's length as read: links count their text, not their address."""
    return len(re.sub(r"\]\([^)]*\)", "]", line))


def verdict_of(row: dict) -> str:
    return row.get("met_text") or verdict(row.get("met"))


def render(runs: list[dict], output: Path, results_dir: Path) -> str:
    """BENCHMARKS.md from the results files (oldest first): the newest figure of each row."""
    sections = results.merge(runs)
    quick = any(run.get("quick") for run in runs)

    def link(run: dict, section: dict, anchor: str = "") -> str:
        target = results_dir / section["detail"] if section.get("detail") else results_dir / f"{run['id']}.json"
        return os.path.relpath(target, output.parent).replace(os.sep, "/") + anchor

    bench = Path(__file__).resolve().parent.parent
    # bench/README.md seen from the report (a report made outside the tree links as from its root)
    readme = (os.path.relpath(bench / "README.md", output.parent) if output.is_relative_to(bench.parent)
              else "bench/README.md")
    lines = ["# camrec benchmarks", ""]
    if quick:
        lines += ["> **Quick smoke run (`bench/run --quick`)**: a few short runs to check that the harness "
                  "works. These numbers are NOT measurements; see BENCHMARKS.md in the repository for those.", ""]
    used = sorted({id(r.run): r.run for s in sections for r in s.rows}.values(), key=lambda r: (r["started"], r["id"]))
    folder = os.path.relpath(results_dir, bench.parent) if results_dir.is_relative_to(bench.parent) else "bench/results"
    span = (f"{len(used)} runs, {shown_time(used[0]['started'])[:10]} to {shown_time(used[-1]['started'])[:10]}"
            if len(used) > 1 else f"1 run, {shown_time(used[0]['started'])}" if used else "no runs")
    lines += ["camrec against `gst-launch-1.0` and `ffmpeg` doing the same work on the same emulated camera. "
              "Each row is the newest measurement of its figure, from the results files in "
              f"[{folder}/]({os.path.relpath(results_dir, output.parent)}/) ({span}); "
              "its last column says when it was measured and links to that run's notes on the section "
              "(method, tables, profiles). Figures are median (min–max) over the runs; ratios are camrec / peer, "
              "paired per run: compare ratios, not raw figures, between rows measured on different days. "
              f"How to read and rerun it: [bench/README.md]({readme}). This file is generated "
              "(`bench/report`): edit the results or the generator, not this file.", ""]

    lines += ["## Known gaps", ""]
    gap_lines = []
    for sec in sections:
        for run, section, gap in sec.gaps:
            when = shown_time(section.get("started") or run["started"])[:10]
            gap_lines.append(f"- {gap['line']} ([section {sec.number}, {when}]({link(run, section, '#known-gaps')}))")
        run, section = sec.newest
        if not section.get("measured", True):
            gap_lines.append(f"- Not measured: {sec.title} — {section.get('not_measured') or 'see its notes'} "
                             f"([notes]({link(run, section)}))")
    lines += gap_lines or ["- None among the figures measured."]
    lines.append("")

    lines += ["## Summary", ""]
    header = ["figure", *results.COLUMNS, "goal", "met", "measured"]
    for sec in sections:
        if not sec.rows:
            continue
        rows = []
        for merged in sec.rows:
            row, run, section = merged.row, merged.run, merged.section
            when = shown_time(row.get("measured") or section.get("started") or run["started"])
            rows.append([row["figure"], *(row.get(c, {}).get("text", "") for c in results.COLUMNS),
                         row.get("goal", ""), verdict_of(row),
                         f"[{when}]({link(run, section)}) {run.get('commit') or '?'}"])
        lines += [f"### {sec.title}", "", table(header, rows), ""]

    lines += ["## Runs", "",
              "The runs whose figures are above, oldest first; their section notes say more (what else ran on "
              "the machine: it is shared, other people build and test on it).", ""]
    rows = []
    for run in used:
        numbers = sorted(s["number"] for s in run["sections"] if any(
            r.run is run and r.section is s for sec in sections for r in sec.rows))
        rows.append([f"[{run['id']}]({os.path.relpath(run['_path'], output.parent)})", f"`{run['command']}`",
                     (run.get("commit") or "?") + (" (inferred)" if run.get("commit_note") else ""),
                     "" if run.get("minutes") is None else f"{run['minutes']:g}",
                     ", ".join(str(n) for n in numbers),
                     f"{run.get('load_before') or '?'} → {run.get('load_after') or '?'}"])
    lines += [table(["run", "command", "commit", "minutes", "sections", "load average before → after"], rows), ""]
    inferred = sorted({run["commit_note"] for run in used if run.get("commit_note")})
    lines += [f"- inferred commit: {note}" for note in inferred]
    machines = {}
    for run in used:
        m = run.get("machine", {})
        text = (f"{m.get('cores', '?')} cores, {m.get('cpu', '?')}, {m.get('memory', '?')} RAM, Linux {m.get('kernel', '?')}; "
                f"GStreamer {m.get('gstreamer', '?')} (x264enc {m.get('x264enc', '?')}), ffmpeg {m.get('ffmpeg', '?')}")
        machines.setdefault(text, []).append(run["id"])
    for text, ids in machines.items():
        lines.append(f"- {text}" + ("" if len(machines) == 1 else f": {', '.join(ids)}"))
    lines += ["", "## Rerun", "", *RERUN, "",
              "Everything a run writes besides its results (movies, logs, each command line) is under `bench/out/` "
              "(not committed).", ""]
    return "\n".join(lines)


def check_gap_lines(text: str) -> list[str]:
    """The known-gap lines longer than the limit (rendered: link addresses do not count)."""
    part = text.split("## Known gaps", 1)[-1].split("\n## ", 1)[0]
    return [line for line in part.splitlines()
            if line.startswith("- ") and rendered_length(line) > results.GAP_LINE_MAX]


def generate(results_dir: Path, output: Path) -> str:
    runs = [run for run in results.load(results_dir) if not run.get("quick")] or results.load(results_dir)
    if not runs:
        raise SystemExit(f"bench: no results files in {results_dir}")
    return render(runs, output, results_dir)


def main(argv: list[str] | None = None) -> int:
    bench = Path(__file__).resolve().parent.parent
    parser = argparse.ArgumentParser(prog="bench/report", description="BENCHMARKS.md from bench/results/*.json")
    parser.add_argument("--results", type=Path, default=bench / "results", help="the results folder")
    parser.add_argument("--output", type=Path, default=bench.parent / "BENCHMARKS.md", help="the report to write")
    parser.add_argument("--check", action="store_true", help="only compare: exit 1 when the report is not current")
    args = parser.parse_args(argv)
    text = generate(args.results.resolve(), args.output.resolve())
    if args.check:
        current = args.output.read_text() if args.output.exists() else ""
        if current != text:
            print(f"bench/report: {args.output} is not what {args.results} makes: run bench/report", file=sys.stderr)
            return 1
        return 0
    args.output.write_text(text)
    print(f"bench/report: wrote {args.output} ({len(text.encode())} bytes)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.dont_write_bytecode = True
    sys.exit(main())
