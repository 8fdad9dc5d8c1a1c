"""BENCHMARKS.md is the generator's output from bench/results/, and the generator is a function
of the results alone (issue 32 item 5).

    python3 -m unittest discover -s bench/tests     (from the package root; seconds)
"""

from __future__ import annotations

import copy
import importlib.machinery
import importlib.util
import json
import shutil
import sys
import tempfile
import types
import unittest
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent
ROOT = BENCH.parent
sys.dont_write_bytecode = True
sys.path.insert(0, str(BENCH))

from benchlib import report, results  # noqa: E402
from benchlib.common import ratio_text, spread  # noqa: E402
from benchlib.section import SectionResult, SummaryRow  # noqa: E402


def run_file(started: str, commit: str, sections: list[dict], quick: bool = False) -> dict:
    return {"format": results.FORMAT, "id": results.run_id(started, commit), "started": started, "minutes": 1.0,
            "command": "bench/run", "quick": quick, "commit": commit, "camrec": "camrec 0.1.0", "machine": {},
            "load_before": "1.00", "load_after": "2.00", "nice": 0, "phases": [], "note": "", "sections": sections}


def section(key: str, number: int, rows: list[dict], gaps: list[str] = ()) -> dict:
    return {"key": key, "number": number, "title": f"{number}. {key}", "measured": True, "not_measured": "",
            "started": None, "detail": None, "rows": rows, "gaps": [{"line": g, "detail": g} for g in gaps]}


def row(figure: str, camrec: str, measured: str, part: str = "", met=None) -> dict:
    return results.row_data(figure, {"camrec": camrec}, "", met, measured, 5, part=part)


class CurrentReport(unittest.TestCase):
    def test_benchmarks_md_is_the_generators_output(self):
        made = report.generate(BENCH / "results", ROOT / "BENCHMARKS.md")
        self.assertEqual((ROOT / "BENCHMARKS.md").read_text(), made,
                         "BENCHMARKS.md is not what bench/results/ makes: run bench/report")

    def test_the_generator_is_deterministic_and_independent_of_where_the_tree_is(self):
        first = report.generate(BENCH / "results", ROOT / "BENCHMARKS.md")
        self.assertEqual(first, report.generate(BENCH / "results", ROOT / "BENCHMARKS.md"))
        with tempfile.TemporaryDirectory() as tmp:
            copied = Path(tmp) / "bench" / "results"
            shutil.copytree(BENCH / "results", copied)
            self.assertEqual(first, report.generate(copied, Path(tmp) / "BENCHMARKS.md"))

    def test_known_gap_lines_are_short_and_link_to_notes_that_exist(self):
        text = (ROOT / "BENCHMARKS.md").read_text()
        self.assertEqual(report.check_gap_lines(text), [])
        gaps = text.split("## Known gaps", 1)[1].split("\n## ", 1)[0]
        for line in gaps.splitlines():
            if line.startswith("- "):
                self.assertIn("](bench/results/", line)

    def test_every_results_file_is_complete(self):
        for run in results.load(BENCH / "results"):
            with self.subTest(run=run["id"]):
                self.assertFalse(run.get("quick"), "a quick run's results do not belong in bench/results/")
                for key in ("started", "command", "commit", "machine", "load_before", "load_after", "sections"):
                    self.assertIn(key, run)
                for sec in run["sections"]:
                    self.assertTrue((BENCH / "results" / sec["detail"]).is_file(), sec["detail"])
                    for r in sec["rows"]:
                        self.assertTrue(r["measured"])
                        self.assertIn("met", r)
                        for column in results.COLUMNS:
                            self.assertIn("text", r[column])


class Merge(unittest.TestCase):
    def render(self, runs: list[dict]) -> str:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp) / "results"
            for run in runs:
                results.write(folder / f"{run['id']}.json", run)
            return report.generate(folder, Path(tmp) / "BENCHMARKS.md")

    def test_a_partial_rerun_replaces_its_rows_and_says_when_each_was_measured(self):
        old = run_file("2026-12-01T10:00Z", "aaaaaaa", [
            section("recording", 1, [row("cpu", "0.26", "2026-12-01T10:00Z")]),
            section("trim", 4, [row("short cut", "2.0 s", "2026-12-01T10:05Z", "short"),
                                row("long cut", "9.0 s", "2026-12-01T10:07Z", "long")], ["old long gap"])])
        new = run_file("2026-12-02T10:00Z", "bbbbbbb", [
            section("trim", 4, [row("long cut", "1.0 s", "2026-12-02T10:01Z", "long")], ["new long gap"])])
        merged = results.merge([old, new])
        trim = next(s for s in merged if s.key == "trim")
        self.assertEqual([(m.row["figure"], m.row["camrec"]["text"], m.run["commit"]) for m in trim.rows],
                         [("short cut", "2.0 s", "aaaaaaa"), ("long cut", "1.0 s", "bbbbbbb")])
        text = self.render([old, new])
        self.assertIn("| long cut | 1.0 s |", text)
        self.assertNotIn("9.0 s", text)
        self.assertIn("2026-12-02 10:01", text)
        self.assertIn("2026-12-01 10:05", text)
        self.assertIn("2026-12-01 10:00", text)   # the recording row, not rerun
        # The old run still supplies the short rows, so its gap stays; both are listed.
        self.assertIn("new long gap", text)
        self.assertIn("old long gap", text)

    def test_a_whole_section_rerun_drops_rows_it_no_longer_has(self):
        old = run_file("2026-12-01T10:00Z", "aaaaaaa", [
            section("scale", 6, [row("old name", "20", "2026-12-01T10:00Z")], ["old gap"])])
        new = run_file("2026-12-02T10:00Z", "bbbbbbb", [
            section("scale", 6, [row("new name", "21", "2026-12-02T10:00Z")])])
        text = self.render([new, old])   # the order of the files does not matter
        self.assertIn("new name", text)
        self.assertNotIn("old name", text)
        self.assertNotIn("old gap", text)

    def test_quick_results_are_not_published(self):
        real = run_file("2026-12-01T10:00Z", "aaaaaaa", [section("startup", 2, [row("start-up", "95 ms", "x")])])
        quick = run_file("2026-12-02T10:00Z", "bbbbbbb", [section("startup", 2, [row("start-up", "1 ms", "y")])],
                         quick=True)
        text = self.render([real, quick])
        self.assertIn("95 ms", text)
        self.assertNotIn("1 ms", text)
        self.assertNotIn("Quick smoke run", text)

    def test_a_long_gap_gets_a_short_line(self):
        long = "**Scale** (section 6): " + "camrec sustains 20 recordings, and more words follow. " * 20
        line = report.gap_line(long)
        self.assertLessEqual(len(line), results.GAP_LINE_MAX - 40)
        self.assertTrue(line.startswith("**Scale**"))


class Cells(unittest.TestCase):
    def test_a_cell_with_one_figure_has_its_spread(self):
        cell = results.parse_cell("95 ms (85–100)", 5)
        self.assertEqual((cell["median"], cell["min"], cell["max"], cell["runs"], cell["unit"]),
                         (95.0, 85.0, 100.0, 5, "ms"))
        self.assertEqual(results.parse_cell("0 (every run)", 3)["max"], 0.0)
        self.assertEqual(results.parse_cell("-0 ms (-10–+11)", 5)["min"], -10.0)

    def test_a_cell_of_several_figures_keeps_its_text_only(self):
        for text in ("18 / 18; 18 / 18", "−23.3 → −23.5 ms", "10 → 10 (10–11)", "median 53 ms, worst 313 ms"):
            cell = results.parse_cell(text, 5)
            self.assertEqual(cell["text"], text)
            self.assertIsNone(cell["median"], text)

    def test_a_live_figure_carries_its_numbers(self):
        cell = results.cell_of(spread([0.25, 0.26, 0.27], "{:.3f}"), None, "CPU s per recorded s")
        self.assertEqual((cell["median"], cell["min"], cell["max"], cell["runs"]), (0.26, 0.25, 0.27, 3))
        ratio = results.cell_of(ratio_text([1.0, 1.1]), None, "×")
        self.assertEqual((ratio["runs"], ratio["unit"]), (2, "×"))


class RunWritesResults(unittest.TestCase):
    """bench/run's last step, without measuring: a results file and notes from a section's result,
    and a report from that file alone (what --quick does)."""

    def test_a_run_record_makes_a_report(self):
        loader = importlib.machinery.SourceFileLoader("bench_run", str(BENCH / "run"))
        spec = importlib.util.spec_from_loader("bench_run", loader)
        bench_run = importlib.util.module_from_spec(spec)
        loader.exec_module(bench_run)
        sec = SectionResult("startup", "2. Start-up", method=["How."], body=["| a |\n| --- |\n| 1 |"])
        sec.summary.append(SummaryRow("start-up to first frame in the file", spread([0.09, 0.1, 0.11], "{:.3f}", " s"),
                                      goal="≤ 1 s", met=True))
        sec.gaps.append("**A gap**: " + "words " * 80)
        settings = types.SimpleNamespace(quick=True, runs=2)
        ctx = types.SimpleNamespace(settings=settings, toolbox=types.SimpleNamespace(build_note=""), nice=0,
                                    facts={"commit": "abc1234", "cores": "2", "load_before": "1", "load_after": "2"},
                                    shared={})
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp) / "results"
            output = Path(tmp) / "BENCHMARKS-quick.md"
            run = bench_run.run_record(ctx, [sec], {"startup": "2026-12-02T15:00Z"}, "2026-12-02T14:59Z", 60.0,
                                       folder, output)
            path = folder / f"{run['id']}.json"
            results.write(path, run)
            data = json.loads(path.read_text())
            self.assertEqual(data["id"], "2026-12-02T1459Z-abc1234")
            cell = data["sections"][0]["rows"][0]["camrec"]
            self.assertEqual((cell["median"], cell["runs"], cell["unit"]), (0.1, 3, "s"))
            self.assertEqual(data["sections"][0]["rows"][0]["measured"], "2026-12-02T15:00Z")
            notes = folder / data["sections"][0]["detail"]
            self.assertIn("**A gap**", notes.read_text())
            text = report.generate(folder, output)   # only a quick file: shown, and marked so
            self.assertIn("Quick smoke run", text)
            self.assertIn("| start-up to first frame in the file | 0.100 s (0.090–0.110) |", text)
            self.assertEqual(report.check_gap_lines(text), [])


if __name__ == "__main__":
    unittest.main()
