#!/usr/bin/env python3
"""One-off (issue 32 item 5): the hand-edited BENCHMARKS.md (111 KB, one file for 13 runs) into
results files, one per run, with each section's prose as that run's section notes.

    python3 bench/tools/seed_results.py OLD_BENCHMARKS.md      # writes bench/results/
    python3 bench/tools/seed_results.py OLD_BENCHMARKS.md --check   # after bench/report: what was lost

Run once, at commit 291484b (`git show 291484b:BENCHMARKS.md > /tmp/old.md`). Kept for the record
of how the first results files were made; later runs write their own (bench/run).

What each run was (date, command, commit, load) comes from BENCHMARKS.md's header paragraph and
the section intros. Three runs' commits are not written there (sections 4's short inputs, 8 and
10): they are the newest commit on the main line at the run's start, marked as inferred.
"""

from __future__ import annotations

import collections
import json
import re
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BENCH))
sys.dont_write_bytecode = True

from benchlib import report, results  # noqa: E402
from benchlib.section import SectionResult  # noqa: E402

MACHINE = {"cores": "2", "cpu": "AMD EPYC", "memory": "24105 MB", "kernel": "6.18.44-fc-v595",
           "gstreamer": "1.22.0", "x264enc": "1.22.0", "ffmpeg": "5.1.9-0+deb12u1"}
MACHINE_NOTE = ("the machine line of BENCHMARKS.md (written by the 2026-11-29 run); the later runs were made on "
                "the same shared machine")
INFERRED = "not written in BENCHMARKS.md: the newest commit on the main line when the run started"

# The runs, oldest first: (started, command, minutes, commit, commit note, load before, after, note,
# [(section key, part, where its prose is, runs per row)]).
RUNS = [
    dict(started="2026-11-29T23:03Z", command="bench/run", minutes=19.5, commit="87d18ea",
         load_before="1.33 1.53 2.52", load_after="27.08 16.04 8.67",
         note=("including making (not cached yet) the 10-minute x264 trim input: 192 CPU s of encoding in 304 s at "
               "the lowest CPU priority (SCHED_IDLE) in the background of the 1080p recordings of section 1 and their "
               "camera baseline; the suite then waited 34 s for it; the 10-minute camrec trim input: 73 CPU s of "
               "encoding in 498 s at the lowest CPU priority (SCHED_IDLE) in the background of the 1080p recordings "
               "of section 1 and their camera baseline; the suite then waited 0 s for it"),
         phases=[("720p recordings", 308), ("start-up", 40), ("stills", 77), ("720p camera baseline", 18),
                 ("1080p recordings", 243), ("1080p camera baseline", 28), ("trim", 237),
                 ("waiting for the memory recordings", 2), ("recording report and profiles", 0), ("scale", 216)],
         sections=["recording", "startup", "stills", "memory"]),
    dict(started="2026-11-30T20:21Z", command="bench/run --only trim", minutes=None, commit="976e73b",
         commit_note=INFERRED, load_before=None, load_after=None,
         note=("after the trim edges were made to keep the source's format (issue 20); a full test run shared the "
               "machine: every tool, ffmpeg too, took about twice as long as in the 2026-11-29 run, so compare "
               "ratios, not seconds"),
         sections=["trim:short"]),
    dict(started="2026-11-30T21:15Z", command="BENCH_BEFORE_CAMREC=… bench/run --only binary", minutes=None,
         commit="8915220", commit_note=INFERRED, load_before=None, load_after=None,
         note=("the \"before\" build: commit 976e73b, the last before the static linking, built in release the "
               "same way"),
         sections=["binary"]),
    dict(started="2026-11-30T22:11Z", command="bench/run --only picture", minutes=6.1, commit="b9c81db",
         load_before="3.09 4.05 4.38", load_after="2.03 3.06 3.92",
         note="including the release build; rotation and mirroring by camrecflip", sections=["picture"]),
    dict(started="2026-12-01T00:47Z", command="bench/run --only encoding", minutes=11.2, commit="af244fb",
         commit_note=INFERRED, load_before="12.08 13.52 13.10", load_after="4.78 7.85 10.53",
         note="with other builds on the machine", sections=["encoding"]),
    dict(started="2026-12-01T06:11Z", command="bench/run --only sound", minutes=16.9, commit="7c69d09",
         load_before="1.07 1.24 1.62", load_after="2.37 2.42 2.06",
         note="after camrec's sound clock (`SoundClock`) replaced skew slaving; load average 1.1 to 2.4",
         sections=["sound"]),
    dict(started="2026-12-01T20:49Z", command="bench/run --only segments", minutes=60.1, commit="b6dde02",
         load_before="0.85 1.53 1.48", load_after="6.00 3.71 3.30",
         note="the release build of b6dde02; other work ran on the machine during the long run",
         sections=["segments"]),
    dict(started="2026-12-01T22:06Z", command="bench/run --only liveview", minutes=6.1, commit="52573fa",
         load_before="2.18", load_after="0.99", note="", sections=["liveview"]),
    dict(started="2026-12-02T00:28Z", command="bench/run --only multicam", minutes=6.4, commit="6256f1c",
         load_before="0.80", load_after="0.79", note="", sections=["multicam"]),
    dict(started="2026-12-02T02:17Z", command="bench/run --only scale", minutes=7.9, commit="460bbf7",
         load_before="0.42 2.81 4.16", load_after="5.08 9.20 7.31",
         note=("with its new container part; after the emulated camera began counting its buffers once (sections 1, "
               "5 and the others measured before it count each tool's camera buffers twice in RSS)"),
         sections=["scale"]),
    dict(started="2026-12-02T02:27Z", command="bench/run --only footprint", minutes=2.0, commit="460bbf7",
         load_before="18.8 (1 min, before the first pair)", load_after="4.0 (1 min, before the last pair)",
         note=("load average before the pairs 18.8 falling to 4.0, the scale run before it decaying; after the "
               "emulated camera began counting its buffers once"),
         sections=["footprint"]),
    dict(started="2026-12-02T02:40Z", command="bench/run --only clips", minutes=9.5, commit="938c3c7",
         load_before=None, load_after=None, note="with clips copying their packets", sections=["clips"]),
    dict(started="2026-12-02T11:30Z", command="BENCH_TRIM_PARTS=long bench/run --only trim", minutes=1.4,
         commit="3e5172a", load_before="about 7", load_after=None,
         note=("the inputs cached; other work shared the machine; after Matroska inputs began to be indexed from "
               "their block headers (issue 30 item 13)"),
         sections=["trim:long"]),
]

NUMBERS = {"recording": 1, "startup": 2, "stills": 3, "trim": 4, "memory": 5, "scale": 6, "segments": 7,
           "binary": 8, "picture": 9, "encoding": 10, "footprint": 11, "sound": 12, "clips": 13, "liveview": 14,
           "multicam": 15}


def owner(figure: str) -> tuple[str, str, int | None]:
    """(section key, part, runs per figure) of a summary row of the old BENCHMARKS.md."""
    f = figure
    if f.startswith(("CPU s per recorded s, 1280x720@30 YUYV", "CPU s per recorded s, 1920x1080", "dropped frames, ")):
        return "recording", "", 5
    if f.startswith("start-up"):
        return "startup", "", 5
    if f in ("still latency (trigger → file), 1280x720 JPEG", "movie drops during a burst of 20 stills in 2 s"):
        return "stills", "", 5
    if f.startswith("trim") and "60-min" in f:
        return "trim", "long", 5
    if f.startswith("trim"):
        return "trim", "short", 5
    if "10-min recording (640x480)" in f:
        return "memory", "", 1
    if f.startswith("concurrent"):
        return "scale", "", 1
    if any(k in f for k in ("2-s cuts", "movies of exactly", "movies holding", "2-s movies", "fdatasync")):
        return "segments", "", 3
    if "60-s movies" in f or "open descriptors" in f:
        return "segments", "", 1
    if "toolchain" in f or f.startswith("release binary") or "stripped" in f:
        return "binary", "", 1
    if f.startswith("`camrec --version`"):
        return "binary", "", 5
    if f.startswith("peak RSS, 10-s 720p"):
        return "binary", "", 2
    if f.startswith("picture (section 9)"):
        return "picture", "", 3
    if "--quality" in f or "--bitrate" in f:
        return "encoding", "", 1
    if "passthrough" in f and "still latency" in f:
        return "encoding", "", 2
    if "passthrough" in f:
        return "encoding", "", 3 if "stills" not in f else 2
    if f.startswith("peak RSS, 20-s recording"):
        return "footprint", "", 3
    if "with sound" in f or f.startswith("A/V offset"):
        return "sound", "", 1
    if f.startswith("event clips"):
        part = "motion" if "motion" in f else "preroll" if "pre-roll memory" in f else "clips"
        return "clips", part, 3
    if f.startswith("live view"):
        return "liveview", "", 3
    if f.startswith("two cameras"):
        return "multicam", "", 3
    raise SystemExit(f"seed: no section for summary row {figure!r}")


# Known gaps: the old bullet (found by its start) → (section key, part, the line for BENCHMARKS.md).
GAPS = [
    ("- **Event clips**", "clips", "**Event clips**: no movie frame lost and every clip exact with a clip every 8 s "
     "(1.03× the CPU), but peak RSS doubles once clips are made (74 → 148 MB): the first clip's cut loads gst-libav "
     "and libavcodec (+36 MB of shared libraries)."),
    ("- **Trim time, x264 defaults input**", "trim:short", "**Trim, x264 defaults input** (8.3-s GOP): camrec's "
     "accurate cut takes 6.69× the stream copy's time (goal ≤ 2×), 2.23 s against 0.36 s; 1.93 s of it is decoding "
     "and re-encoding the edges, work a stream copy does not do."),
    ("- **Trim time, 60-minute inputs**", "trim:long", "**Trim, 60-minute inputs**: 4.64× a stream copy for a "
     "Matroska cut and 6.59× for `--end -600` (goal ≤ 1.5×), 10.12× for a fragmented MP4: each packet crosses "
     "threads several times through GStreamer's demuxer and muxer."),
    ("- **Scale**", "scale", "**Scale**: 20 concurrent 640x480 recordings against gst-launch's 20 (goal ≥ 1.25×), "
     "10 against 10 in a 1-CPU container: on 2 cores the CPU runs out about where gst-launch's 4 camera buffers do; "
     "single trials move by a fifth between runs."),
    ("- **Encoding presets, h265", "encoding", "**h265 at `high` and `max`** (emulated camera, 720p30, load about "
     "10): x265 kept up with neither (244 and 144 of 300 frames stored); x265 now runs at `ultrafast` for every "
     "`--quality`, not yet rerun."),
    ("- **Passthrough drops**", "encoding", "**Passthrough drops**: camrec lost 2 frames in one of three 30-s runs "
     "(gst-launch running the same pipeline 3 in another, ffmpeg none): `v4l2src`'s 4 camera buffers under load, "
     "section 6's gap (issue 14 point 6)."),
    ("- **Passthrough still latency**", "encoding", "**Passthrough still latency**: median 53 ms, but the first still "
     "of a recording took up to 313 ms (goal < 191 ms) while it loaded the decoder; it now loads when the stills "
     "thread starts (`StillDecoder.warmUp`), not yet rerun."),
    ("- **Peak memory against gst-launch**", "footprint", "**Peak memory against gst-launch**: camrec's peak RSS is "
     "1.43× gst-launch's at 640x480 and 1.30× at 720p (goal ≤ 1.1×): the static executable's resident pages "
     "(+9.3 MB) and half a second of camera buffers (+6.4 / +8.8 MB)."),
    ("- **Segmented recording CPU**", "segments", "**Segmented recording CPU**: 1.00× gst-launch's and 1.05× "
     "ffmpeg's per round (goal ≤ 1.05× and ≤ 1×), within this machine's noise: camrec flushes each movie "
     "(148 fdatasync calls a minute), the peers do not."),
    ("- **Two cameras**", "multicam", "**Two cameras, composed**: one 1280x1440 movie costs 1.04× ffmpeg's "
     "`vstack` (goal ≤ 1×): camrec scales each camera into its cell and blends them onto a canvas where `vstack` "
     "copies rows; a movie per camera costs 0.99× two ffmpeg processes."),
]

# What the old gap bullets got wrong, said beside them in the notes.
GAP_NOTES = {
    "clips": ("(The motion figures of this paragraph, 0.4 % and 0.66 ms per second, are those of the motion part's "
              "earlier run, 2026-12-01 20:46 UTC at b6dde02; this run measured 0.3 % and 0.602 ms, as the table "
              "above says.)"),
}


def split_sections(text: str) -> dict[str, str]:
    """The old file's '## ' parts by heading."""
    parts, name, lines = {}, "", []
    for line in text.splitlines():
        if line.startswith("## "):
            parts[name] = "\n".join(lines).strip("\n")
            name, lines = line[3:], []
        else:
            lines.append(line)
    parts[name] = "\n".join(lines).strip("\n")
    return parts


def table_rows(block: str) -> list[list[str]]:
    rows = []
    for line in block.splitlines():
        if line.startswith("| ") and not line.startswith("| ---") and not line.startswith("| figure |"):
            cells = line.strip()[2:-2].split(" | ")
            if len(cells) != 8:
                raise SystemExit(f"seed: a summary row with {len(cells)} cells: {line[:80]}")
            rows.append(cells)
    return rows


def met_of(text: str):
    if text == "yes":
        return True, None
    if text == "**no**":
        return False, None
    if text == "":
        return None, None
    if text == "—":
        return None, text
    if text.startswith("yes"):
        return True, text
    raise SystemExit(f"seed: met {text!r}")


def demote(prose: str) -> str:
    """The old '### ' headings one level up, as the notes file's own '## '."""
    return re.sub(r"^(#{3,}) ", lambda m: m.group(1)[1:] + " ", prose, flags=re.M)


def main() -> int:
    old = Path(sys.argv[1]).read_text()
    if "--check" in sys.argv:
        return check(old)
    out = BENCH / "results"
    parts = split_sections(old)
    titles = {int(name.split(".", 1)[0]): name for name in parts if re.match(r"\d+\. ", name)}
    rows_by = collections.defaultdict(list)
    for cells in table_rows(parts["Summary"]):
        key, part, runs = owner(cells[0])
        rows_by[(key, part)].append((cells, runs))
    gaps_text = parts["Known gaps"]
    bullets = [b for b in re.split(r"\n(?=- )", gaps_text) if b.strip()]
    gaps_by = collections.defaultdict(list)
    for start, where, line in GAPS:
        found = [b for b in bullets if b.startswith(start)]
        if len(found) != 1:
            raise SystemExit(f"seed: gap {start!r} found {len(found)} times")
        gaps_by[where].append({"line": line, "detail": found[0][2:]})
    if len(bullets) != len(GAPS):
        raise SystemExit(f"seed: {len(bullets)} gap bullets, {len(GAPS)} placed")

    section4 = parts[titles[4]]
    cut = section4.index("### Long inputs")
    prose = {key: parts[titles[n]] for key, n in NUMBERS.items()}
    prose["trim:short"] = section4[:cut].rstrip()
    prose["trim:long"] = section4[cut:]
    prose["recording"] += "\n\n## How the peers are matched (all sections)\n\n" + parts["How the peers are matched"]
    prose["sound"] += ("\n\nThe earlier run of this section: `bench/run --only sound` on 2026-12-01 03:56 UTC at commit "
                       "e978059 (18.7 minutes; load average before: 3.25 5.65 4.35, after: 10.62 13.04 10.72, with "
                       "another engineer's test suite on the machine), its sync offsets corrected afterwards by the "
                       "click player's own check; what it found is under \"Earlier run, with skew slaving\" above.")
    # Section 13's motion table had a blank line between its rows.
    prose["clips"] = re.sub(r"\n{3,}", "\n\n", prose["clips"].replace("|\n\n|", "|\n|"))

    placed = 0
    for spec in RUNS:
        run = {"format": results.FORMAT, "id": results.run_id(spec["started"], spec["commit"]),
               "started": spec["started"], "minutes": spec["minutes"], "command": spec["command"], "quick": False,
               "commit": spec["commit"], "camrec": "camrec 0.1.0", "build_note": "", "machine": dict(MACHINE),
               "machine_note": MACHINE_NOTE, "load_before": spec["load_before"], "load_after": spec["load_after"],
               "nice": -10, "phases": [{"part": p, "seconds": s} for p, s in spec.get("phases", [])],
               "note": spec["note"], "converted": "from BENCHMARKS.md at 291484b by bench/tools/seed_results.py",
               "sections": []}
        if spec.get("commit_note"):
            run["commit_note"] = spec["commit_note"]
        for where in spec["sections"]:
            key, _, part = where.partition(":")
            number = NUMBERS[key]
            detail = f"{run['id']}/{number:02d}-{key}{'-' + part if part else ''}.md"
            rows = []
            for (k, p), items in rows_by.items():
                if k != key or (part and p != part):
                    continue
                for cells, runs in items:
                    met, met_text = met_of(cells[7])
                    figure = cells[0]
                    rows.append(results.row_data(figure, dict(zip(results.COLUMNS, cells[1:6])), cells[6], met,
                                                 spec["started"], runs, met_text, part=p))
            placed += len(rows)
            title = titles[number]
            gaps = gaps_by.get(where, [])
            for gap in gaps:
                if key in GAP_NOTES:
                    gap["detail"] += " " + GAP_NOTES[key]
            run["sections"].append({"key": key, "number": number, "title": title, "measured": True,
                                    "not_measured": "", "started": spec["started"], "seconds": None,
                                    "detail": detail, "rows": rows, "gaps": gaps})
            sec = SectionResult(key, title, method=[demote(prose[where])], gaps=[g["detail"] for g in gaps])
            notes = out / detail
            notes.parent.mkdir(parents=True, exist_ok=True)
            notes.write_text(report.section_notes(run, sec, notes, BENCH.parent / "BENCHMARKS.md"))
        results.write(out / f"{run['id']}.json", run)
    total = sum(len(v) for v in rows_by.values())
    if placed != total:
        raise SystemExit(f"seed: {placed} of {total} summary rows placed")
    print(f"seed: {len(RUNS)} results files, {total} summary rows, {len(GAPS)} gaps in {out}", file=sys.stderr)
    return 0


def numbers(text: str) -> collections.Counter:
    """The figures of a text (every number with a digit), as a multiset."""
    return collections.Counter(re.findall(r"\d+(?:\.\d+)?", text))


def check(old: str) -> int:
    """Compares the old file with what replaced it: every summary row (all eight cells) must be in
    the new BENCHMARKS.md, and every number of the old file somewhere in the new files."""
    new = (BENCH.parent / "BENCHMARKS.md").read_text()
    old_rows = collections.Counter(tuple(c) for c in table_rows(split_sections(old)["Summary"]))
    new_rows = collections.Counter()
    for line in new.split("## Summary", 1)[1].split("\n## ", 1)[0].splitlines():
        if line.startswith("| ") and not line.startswith(("| ---", "| figure |")):
            cells = line.strip()[2:-2].split(" | ")
            new_rows[tuple(cells[:8])] += 1
    missing_rows = old_rows - new_rows
    extra_rows = new_rows - old_rows
    for row in missing_rows:
        print("row lost:", " | ".join(row)[:200])
    for row in extra_rows:
        print("row added:", " | ".join(row)[:200])
    corpus = new + "".join(p.read_text() for p in sorted((BENCH / "results").rglob("*.md")))
    corpus += "".join(p.read_text() for p in sorted((BENCH / "results").glob("*.json")))
    lost = numbers(old.split("\n## Rerun", 1)[0]) - numbers(corpus)   # the rerun times are bench/README.md's
    print(f"check: {sum(old_rows.values())} summary rows before, {sum(new_rows.values())} after, "
          f"{len(missing_rows)} lost; numbers of the old file not found as often in the new files: "
          f"{dict(lost) or 'none'}")
    return 1 if missing_rows or lost else 0


if __name__ == "__main__":
    sys.exit(main())
