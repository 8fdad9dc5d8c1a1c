"""A run's figures as data: the dated JSON files under bench/results/ and reading them back.

`bench/run` writes one file per run, bench/results/<started>-<commit>.json (e.g.
2026-12-02T1500Z-3e5172a.json): the commit, the machine, the load average before and after, the
sections run and every summary row, each cell with its text as the report shows it and, where the
text is one figure, its median, min, max, runs and unit. Beside it, bench/results/<id>/NN-key.md
holds each section's method, tables and profiles, and the long text of its known gaps.

`merge` puts several runs together for the report: the newest figures of each section (or of
each part of a section, where parts run alone), each row with the run that measured it. A partial
rerun (`--only SECTION`) thus replaces its section's rows and leaves the others as they were.
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

FORMAT = 1
COLUMNS = ("camrec", "gst-launch", "ffmpeg", "camrec / gst-launch", "camrec / ffmpeg")
GAP_LINE_MAX = 300   # characters of a known gap's line in BENCHMARKS.md, its link text included


class Figure(str):
    """A figure's text as the report shows it ('0.260 (0.259–0.266)'), with the numbers it was
    made from. `spread` and `ratio_text` return these, so a section that puts their result into
    a summary row hands the numbers to the results file without saying so."""

    median: float | None = None
    min: float | None = None
    max: float | None = None
    runs: int | None = None
    unit: str = ""

    def __new__(cls, text: str, median=None, low=None, high=None, runs=None, unit: str = ""):
        value = super().__new__(cls, text)
        value.median, value.min, value.max, value.runs, value.unit = median, low, high, runs, unit
        return value


_NUMBER = r"[+\-−]?\d+(?:\.\d+)?"
_UNITS = ("CPU ms per s", "Mbit/s", "MB/s", "kB/s", "MB", "ms", "s", "×", "%", "frames")
_UNIT = "|".join(re.escape(u) for u in _UNITS)
_LEADING = re.compile(rf"^(?:copy )?({_NUMBER})(?: ?({_UNIT}))?(?: \((?:(every run)|({_NUMBER})–({_NUMBER}))\))?(?: ({_UNIT})\b)?")
# What may follow a leading figure for it to be the cell's figure (not "18 / 18" or "10 → 10").
_AFTER = re.compile(r"^(?:$|;|,| \(| against| copy)")


def _number(text: str) -> float:
    return float(text.replace("−", "-"))


def unit_of(figure: str) -> str:
    """The unit of a row's figures when their text does not say it."""
    name = figure.lower()
    if "cpu s per" in name:
        return "CPU s per recorded s"
    if "concurrent" in name:
        return "recordings"
    if "fdatasync" in name:
        return "calls per minute"
    if "descriptors" in name:
        return "descriptors"
    if "librar" in name:
        return "libraries"
    if "frames" in name or "drops" in name:
        return "frames"
    return ""


def parse_cell(text: str, runs: int | None = None, unit: str = "") -> dict:
    """A summary cell as data: its text, and median, min, max, runs and unit when it begins with
    one figure ('0.260 (0.259–0.266)', '95 ms (85–100)', '0 (every run)', '1.43×'); otherwise the
    numbers are null (the text holds several figures, e.g. one per preset)."""
    text = str(text)
    cell = {"text": text, "median": None, "min": None, "max": None, "runs": None, "unit": None}
    if isinstance(text, Figure) and text.median is not None:
        cell.update(median=text.median, min=text.min, max=text.max, runs=text.runs,
                    unit=text.unit.strip() or unit or None)
        return cell
    match = _LEADING.match(text)
    if not match or not _AFTER.match(text[match.end():]):
        return cell
    value = _number(match.group(1))
    low = high = value
    if match.group(4) is not None:
        low, high = _number(match.group(4)), _number(match.group(5))
    cell.update(median=value, min=low, max=high, runs=runs, unit=match.group(2) or match.group(6) or unit or None)
    return cell


def _rounded(value):
    """A measured float without its binary noise (6 significant digits)."""
    return float(f"{value:.6g}") if isinstance(value, float) else value


def cell_of(value, runs: int | None, unit: str) -> dict:
    """parse_cell for a live run's cell: a Figure keeps its own numbers and runs."""
    if isinstance(value, Figure) and value.median is not None:
        return {"text": str(value), "median": _rounded(value.median), "min": _rounded(value.min),
                "max": _rounded(value.max), "runs": value.runs, "unit": value.unit.strip() or unit or None}
    return parse_cell(str(value), runs, unit)


def row_data(figure: str, cells: dict, goal: str, met, measured: str, runs: int | None = None,
             met_text: str | None = None, part: str = "") -> dict:
    """One summary row: its figure, a cell per column (tool or ratio), goal, met, when measured and,
    in a section whose parts run alone, its part."""
    unit = unit_of(figure)
    row = {"figure": figure, "measured": measured, "goal": goal, "met": met}
    if part:
        row["part"] = part
    if met_text:
        row["met_text"] = met_text
    for column in COLUMNS:
        value = cells.get(column, "")
        column_unit = "×" if "/" in column else unit
        row[column] = cell_of(value, runs, column_unit) if value not in ("", None) else {"text": str(value or "")}
    return row


def run_id(started: str, commit: str) -> str:
    """'2026-12-02T15:00Z', 'abc1234' → '2026-12-02T1500Z-abc1234'."""
    return started.replace(":", "") + "-" + (commit or "unknown")


def write(path: Path, data: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")


def load(folder: Path) -> list[dict]:
    """Every results file in the folder, oldest first (by start time, then name)."""
    runs = []
    for path in sorted(folder.glob("*.json")):
        data = json.loads(path.read_text())
        if data.get("format") != FORMAT:
            raise SystemExit(f"bench: {path}: results format {data.get('format')!r}, expected {FORMAT}")
        data["_path"] = path
        runs.append(data)
    runs.sort(key=lambda r: (r["started"], r["id"]))
    return runs


@dataclasses.dataclass
class MergedRow:
    row: dict
    run: dict          # the results file that measured it
    section: dict      # its section in that file


@dataclasses.dataclass
class MergedSection:
    key: str
    number: int
    title: str
    rows: list[MergedRow]
    runs: list[tuple[dict, dict]]        # (run, its section) supplying rows, oldest first
    newest: tuple[dict, dict]            # the newest run of the section, rows or not
    gaps: list[tuple[dict, dict, dict]]  # (run, section, gap) of the runs that still supply rows


def merge(runs: list[dict]) -> list[MergedSection]:
    """The newest figures of each section across the runs (oldest first). A run of a section
    replaces all its rows; a run of some of its parts (rows tagged with a part: the trim's short
    and long inputs, the event clips' pre-roll, clips and motion) replaces only those parts' rows,
    which keep their place. A gap stays while its run still supplies a row of its section (or the
    section has no rows at all)."""
    sections: dict[str, dict] = {}
    for run in runs:
        for section in run["sections"]:
            entry = sections.setdefault(section["key"], {"parts": {}, "newest": None, "all": []})
            entry["newest"] = (run, section)
            entry["all"].append((run, section))
            rows = section.get("rows", [])
            parts = {row.get("part", "") for row in rows} or {""}
            if "" in parts:
                entry["parts"] = {}
            for part in sorted(parts, key=lambda p: [row.get("part", "") for row in rows].index(p) if rows else 0):
                entry["parts"][part] = [MergedRow(row, run, section) for row in rows if row.get("part", "") == part]
    merged = []
    for key, entry in sections.items():
        run, section = entry["newest"]
        rows = [row for part in entry["parts"].values() for row in part]
        suppliers = {id(r.run) for r in rows}
        supplying = [(r, s) for r, s in entry["all"] if id(r) in suppliers]
        gaps = [(r, s, g) for r, s in (supplying or [entry["newest"]]) for g in s.get("gaps", [])]
        merged.append(MergedSection(key, section["number"], section["title"], rows, supplying,
                                    entry["newest"], gaps))
    merged.sort(key=lambda s: s.number)
    return merged
