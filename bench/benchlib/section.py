"""What every measurement section hands to the report."""

from __future__ import annotations

import dataclasses
from pathlib import Path


@dataclasses.dataclass
class SummaryRow:
    figure: str
    camrec: str
    gst: str = "—"
    ffmpeg: str = "—"
    vs_gst: str = "—"
    vs_ffmpeg: str = "—"
    goal: str = ""
    met: bool | None = None   # None: no goal, or not measured
    # The part of its section that measured it, in a section whose parts can run alone
    # (BENCH_TRIM_PARTS, BENCH_CLIPS_PARTS): a rerun of one part replaces only that part's rows
    # in BENCHMARKS.md (benchlib/results.py, merge). "": the whole section.
    part: str = ""


@dataclasses.dataclass
class SectionResult:
    key: str
    title: str
    measured: bool = True
    not_measured: str = ""                 # why, when measured is False
    method: list[str] = dataclasses.field(default_factory=list)   # markdown paragraphs
    body: list[str] = dataclasses.field(default_factory=list)     # tables and notes (markdown)
    summary: list[SummaryRow] = dataclasses.field(default_factory=list)
    gaps: list[str] = dataclasses.field(default_factory=list)     # markdown bullets (no leading "- ")
    seconds: float = 0.0


def part_rows(result: SectionResult, part: str, work) -> None:
    """Runs one part of a section and tags the summary rows it added with the part's name."""
    since = len(result.summary)
    work()
    for row in result.summary[since:]:
        row.part = part


def table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join("---" for _ in header) + " |"]
    for row in rows:
        lines.append("| " + " | ".join(str(cell) for cell in row) + " |")
    return "\n".join(lines)


@dataclasses.dataclass
class Settings:
    """Counts and durations for one suite (full or --quick)."""

    quick: bool
    runs: int                  # repetitions of every timed figure
    rec720_seconds: float      # recording cost, 1280x720 YUYV (the three tools side by side)
    rec1080_seconds: float     # recording cost, 1920x1080 MJPEG (one tool at a time)
    baseline_seconds: float    # the emulated camera alone
    startup_seconds: float
    still_singles: int
    trim_input_seconds: int
    trim_start: float
    trim_end: float
    memory_seconds: float      # 0: not measured
    scale_seconds: float
    scale_max: int


FULL = Settings(quick=False, runs=5, rec720_seconds=60, rec1080_seconds=15, baseline_seconds=3,
                startup_seconds=2, still_singles=10, trim_input_seconds=600, trim_start=120,
                trim_end=480, memory_seconds=600, scale_seconds=8, scale_max=40)
QUICK = Settings(quick=True, runs=2, rec720_seconds=5, rec1080_seconds=4, baseline_seconds=2,
                 startup_seconds=2, still_singles=4, trim_input_seconds=60, trim_start=12,
                 trim_end=48, memory_seconds=0, scale_seconds=4, scale_max=10)


@dataclasses.dataclass
class Context:
    settings: Settings
    toolbox: object            # tools.Toolbox
    out: Path                  # bench/out
    run_dir: Path              # bench/out/run-<time>
    nice: int
    profile_all: bool = False  # profile every figure that has a profile, not only those that miss their goal
    facts: dict = dataclasses.field(default_factory=dict)
    shared: dict = dataclasses.field(default_factory=dict)   # results sections pass on

    def profiling(self, missed: bool) -> bool:
        """Whether to take a figure's profile: when it misses its goal; always in --quick (so the
        profiles are smoke-tested) and with --profile-all."""
        return missed or self.settings.quick or self.profile_all

    def dir(self, name: str) -> Path:
        path = self.run_dir / name
        path.mkdir(parents=True, exist_ok=True)
        return path
