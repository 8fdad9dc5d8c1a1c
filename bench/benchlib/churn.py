"""Part of section 5: resident memory over 500 pipelines built, run and torn down in one
process, through camrec's GStreamer bindings.

The cycle lives in the test target (Tests/GStreamerTests/PipelineChurnTests.swift), where it
also runs as a short leak check (50 cycles, every object checked with weak references). The
long figure is measured here: the debug test binary runs that one test
(`pipelineChurnMemory`) in a process of its own with CAMREC_PIPELINE_CHURN=WARMUP,CYCLES and
writes its resident memory before and after the cycles as JSON. A leak of one pipeline per
cycle (elements, pads, caps, bus) would add several megabytes over 500.

Run alone (a few seconds, plus the test build when it is not up to date):
    bench/run --only memory --memory-seconds 0
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
import time
from pathlib import Path

from .common import log, run_quiet

WARMUP = 50
CYCLES = 500
GOAL_MB = 3.0
TEST = "pipelineChurnMemory"


def swift_debug_args(ctx) -> list[str]:
    args = ["swift", "build"]
    if ctx.toolbox.scratch:
        args += ["--scratch-path", str(ctx.toolbox.scratch)]
    return args


def test_binary(ctx) -> Path:
    bin_dir = run_quiet(swift_debug_args(ctx) + ["--show-bin-path"], cwd=ctx.toolbox.package).stdout.strip().splitlines()[-1]
    return Path(bin_dir) / "camrecPackageTests.xctest"


def build(ctx) -> str:
    """Builds the test binary (debug, as `swift test` does); returns a note when it could not."""
    for attempt in range(4):
        log("building the test binary (debug) for the pipeline churn…")
        done = subprocess.run(swift_debug_args(ctx) + ["--build-tests"], cwd=ctx.toolbox.package,
                              capture_output=True, text=True)
        if done.returncode == 0:
            return ""
        # Others may be editing sources meanwhile (see Toolbox.build).
        if "modified during the build" in done.stdout + done.stderr and attempt < 3:
            time.sleep(10)
            continue
        log("build of the test binary failed:\n" + (done.stdout + done.stderr)[-800:])
        return "the test build failed at the time of the run; the previous test binary was measured"
    return ""


def measure(ctx, warmup: int = WARMUP, cycles: int = CYCLES) -> dict:
    """Runs the churn; returns the measurement, or {"error": why}."""
    note = build(ctx) if ctx.toolbox.build_requested else ""
    try:
        binary = test_binary(ctx)
    except subprocess.CalledProcessError as error:
        return {"error": f"no test build folder ({error})"}
    if not binary.exists():
        return {"error": f"{binary} is missing: build it with `swift build --build-tests`"}
    run_dir = ctx.dir("memory")
    report = Path(tempfile.mkstemp(prefix="churn-", suffix=".json", dir=run_dir)[1])
    env = dict(os.environ)
    env["CAMREC_PIPELINE_CHURN"] = f"{warmup},{cycles}"
    env["CAMREC_PIPELINE_CHURN_REPORT"] = str(report)
    argv = [str(binary), "--testing-library", "swift-testing", "--filter", TEST]
    (run_dir / "churn.cmd").write_text(f"CAMREC_PIPELINE_CHURN={warmup},{cycles} " + " ".join(argv) + "\n")
    log(f"memory: {warmup} + {cycles} pipelines built, run and torn down…")
    began = time.monotonic()
    done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=600, cwd=run_dir)
    seconds = time.monotonic() - began
    (run_dir / "churn.log").write_text(done.stdout + done.stderr)
    try:
        data = json.loads(report.read_text())
    except (OSError, ValueError):
        data = None
    if done.returncode != 0 or not data:
        return {"error": f"the churn run failed (exit {done.returncode}; see memory/churn.log)"}
    data["seconds"] = seconds
    data["growth_mb"] = (data["rss_after_bytes"] - data["rss_before_bytes"]) / 1024 / 1024
    data["note"] = note
    return data


def describe(data: dict) -> tuple[list[str], list[str]]:
    """The method paragraph and the body (a sentence with the figures) for section 5."""
    method = [
        f"Pipeline churn: the test binary's `{TEST}` (Tests/GStreamerTests/PipelineChurnTests.swift) builds, "
        "runs to end of stream and tears down a small pipeline (videotestsrc, caps, a tee, two queues and "
        f"fakesinks, a buffer probe) through camrec's bindings, {WARMUP} times to warm up (plugins, caches, thread "
        f"pools), then {CYCLES} times more, in a process of its own; growth = RSS (/proc/self/statm) after the "
        f"{CYCLES} − RSS before them. `swift test` runs the same cycle 50 times as a leak check, every object "
        "checked with weak references.",
    ]
    if "error" in data:
        return method, [f"Pipeline churn not measured: {data['error']}."]
    body = [
        f"Pipeline churn: RSS {data['rss_before_bytes'] / 1024 / 1024:.1f} MB after the {data['warmup']} warm-up "
        f"cycles, {data['growth_mb']:+.2f} MB over {data['cycles']} more "
        f"({data['growth_mb'] * 1024 * 1024 / max(data['cycles'], 1):+.0f} bytes per pipeline); the run took "
        f"{data['seconds']:.1f} s." + (f" Note: {data['note']}." if data.get("note") else "")
    ]
    return method, body
