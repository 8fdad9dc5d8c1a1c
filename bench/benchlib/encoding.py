"""10. Encoding (issue 14): what each codec and --quality preset costs in CPU and bytes and
gives in picture quality; --bitrate accuracy; passthrough (--codec copy) of an H.264 camera
against ffmpeg's and gst-launch's copy; stills from a passthrough recording."""

from __future__ import annotations

import json
import os
import re
import shlex
import statistics
import threading
import time
from pathlib import Path

from . import stills
from .common import Child, load_average, log, median, ratio_text, run_quiet, spread
from .media import pts_gaps, recording_drops, stamps
from .recording import camrec_result
from .section import Context, SectionResult, SummaryRow, table
from .tools import H264_720, YUYV_720

CODECS = (("h264", "mp4"), ("h265", "mp4"), ("mjpeg", "mkv"))
PRESETS = ("low", "medium", "high", "max")
BITRATE = "2M"
BITRATE_BPS = 2_000_000
PRODUCER = "vcam-producer"   # the emulated camera's thread (it encodes H.264 with x264 in-process)
TEST_SOURCE = "videotestsrc pattern=smpte horizontal-speed=4"


class Shape:
    """Counts and lengths of this section (full or --quick)."""

    def __init__(self, quick: bool):
        self.quick = quick
        self.seconds = 3 if quick else 10              # each codec × preset run on the camera
        self.test_seconds = 3 if quick else 5          # … and on the test pattern (deterministic: 5 s show it)
        self.presets = ("low", "max") if quick else PRESETS
        self.bitrate_seconds = 10 if quick else 30
        self.pass_runs = 1 if quick else 3
        self.pass_seconds = 10 if quick else 30
        self.baseline_seconds = 5 if quick else 10
        self.still_runs = 1 if quick else 2
        self.keepup_rounds = 1 if quick else 3        # --quality auto against high, H.265 (issue 37 item 4)
        self.keepup_seconds = 8 if quick else 20
        self.keepup_hogs = 2                           # busy loops beside it: a shared machine, reproducibly


# ---- measuring helpers -------------------------------------------------------------------

class ThreadCpu:
    """Samples the CPU time (utime + stime) of one process's threads by name from
    /proc/PID/task/*/stat every 0.2 s; the last sample before the process exits is its
    thread's total, short of at most 0.2 s of its work."""

    def __init__(self, pid: int, name: str = PRODUCER, interval: float = 0.2):
        self.pid, self.name, self.interval = pid, name, interval
        self.ticks: dict[int, int] = {}
        self.stop = threading.Event()
        self.hz = os.sysconf("SC_CLK_TCK")
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        base = Path(f"/proc/{self.pid}/task")
        while not self.stop.is_set():
            try:
                for task in base.iterdir():
                    try:
                        text = (task / "stat").read_text()
                    except OSError:
                        continue
                    comm = text[text.index("(") + 1:text.rindex(")")]
                    if comm != self.name:
                        continue
                    fields = text[text.rindex(")") + 2:].split()
                    # fields[0] is field 3 (state): utime is field 14, stime 15.
                    self.ticks[int(task.name)] = int(fields[11]) + int(fields[12])
            except (OSError, ValueError):
                return
            self.stop.wait(self.interval)

    def finish(self) -> float | None:
        self.stop.set()
        self.thread.join(timeout=5)
        return sum(self.ticks.values()) / self.hz if self.ticks else None


def packet_sizes(path: Path) -> list[int]:
    out = run_quiet(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=size",
                     "-of", "csv=p=0", str(path)], check=False)
    return [int(v) for v in out.stdout.split() if v.strip().isdigit()]


def stream_info(path: Path) -> dict:
    out = run_quiet(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
                     "stream=codec_name,codec_tag_string,pix_fmt", "-of", "json", str(path)], check=False)
    try:
        return (json.loads(out.stdout or "{}").get("streams") or [{}])[0]
    except ValueError:
        return {}


def quality(movie: Path, reference: Path, ref_format: str, start: int, frames: int, run_dir: Path,
            name: str) -> tuple[float | None, float | None]:
    """Luma PSNR (average over the frames, dB) and luma SSIM of `frames` frames of the movie
    against the raw reference from its frame `start` on, frame by frame (both re-timed to
    their frame index, so that the movie's own timestamps cannot shift the pairing). Only
    the Y planes are compared (`extractplanes=y`): no colour conversion or range change
    (Motion JPEG decodes as full-range yuvj420p) can enter the figures."""
    # extractplanes takes planar formats only: packed YUYV is repacked to yuv422p first (the
    # same samples, nothing resampled).
    planar = "format=yuv422p," if ref_format == "yuyv422" else ""
    graph = (f"[0:v]trim=end_frame={frames},extractplanes=y,settb=1/30,setpts=N,split[m1][m2];"
             f"[1:v]trim=start_frame={start}:end_frame={start + frames},{planar}extractplanes=y,settb=1/30,setpts=N,"
             "split[r1][r2];"
             "[m1][r1]psnr[p];[m2][r2]ssim[s]")
    argv = ["ffmpeg", "-nostdin", "-hide_banner", "-i", str(movie),
            "-f", "rawvideo", "-pix_fmt", ref_format, "-s", "1280x720", "-r", "30", "-i", str(reference),
            "-lavfi", graph, "-map", "[p]", "-f", "null", "-", "-map", "[s]", "-f", "null", "-"]
    (run_dir / f"{name}.quality.cmd").write_text(shlex.join(argv) + "\n")
    done = run_quiet(argv, check=False)
    (run_dir / f"{name}.quality.log").write_text(done.stderr)
    psnr = re.search(r"PSNR .*average:(\S+)", done.stderr)
    ssim = re.search(r"SSIM .*All:(\S+)", done.stderr)
    as_float = lambda m: float(m.group(1)) if m and m.group(1) not in ("inf", "nan") else None
    return as_float(psnr), as_float(ssim)


def align(movie: list[int | None], dump: list[int | None]) -> tuple[int | None, int]:
    """Where the movie's frames start in the camera's dump (the dump may hold several streams,
    each numbered from 0): the last index whose stamps match the movie's first frames; and how
    many of the movie's frames follow the dump one for one from there (up to a lost frame)."""
    if not movie or movie[0] is None:
        return None, 0
    best = None
    for k in range(len(dump)):
        if dump[k] == movie[0] and dump[k + 1:k + 3] == movie[1:3]:
            best = k
    if best is None:
        return None, 0
    n = 0
    while n < len(movie) and best + n < len(dump) and movie[n] is not None and movie[n] == dump[best + n]:
        n += 1
    return best, n


# ---- 1. codecs × presets ----------------------------------------------------------------

def encode_runs(ctx: Context, shape: Shape) -> list[dict]:
    mode = YUYV_720
    run_dir = ctx.dir("encoding/presets")
    frames_wanted = round(max(shape.seconds, shape.test_seconds) * mode.fps)
    # The test pattern's reference: videotestsrc renders frame n from n alone (deterministic),
    # so the same source, caps and length give the frames camrec encoded.
    ref_test = run_dir / "testsrc.i420"
    ref_frames = frames_wanted + 60
    # camrec's own source and caps for --device test (from --print-pipeline), without is-live (the
    # frames do not depend on it), then the conversion to I420 its encoders get.
    printed = run_quiet([ctx.toolbox.camrec, "--device", "test", "--size", mode.size, "--fps", str(mode.fps),
                         "--codec", "h264", "--print-pipeline", "--force", str(run_dir / "probe.mp4")]).stdout
    found = re.search(r"(videotestsrc [^!]*?)\s*name=src ! (\S+)", printed)
    source = found.group(1).split() if found else TEST_SOURCE.split()
    source_caps = found.group(2) if found else f"video/x-raw,width={mode.width},height={mode.height},framerate={mode.fps}/1"
    reference = ["gst-launch-1.0", "-q", source[0], f"num-buffers={ref_frames}",
                 *[w for w in source[1:] if w != "is-live=true"], "!", source_caps, "!", "videoconvert", "!",
                 "video/x-raw,format=I420", "!", "filesink", f"location={ref_test}"]
    run_quiet(reference)
    ctx.shared["encoding-test-reference"] = " ".join(reference[:1] + reference[2:-1]) + " location=REF"
    results = []
    for source in ("camera", "test"):
        for codec, ext in CODECS:
            for preset in shape.presets:
                name = f"{source}-{codec}-{preset}"
                out = run_dir / f"{name}.{ext}"
                extra = ["--codec", codec, "--quality", preset]
                seconds = shape.seconds if source == "camera" else shape.test_seconds
                log(f"encoding: {source}, {codec} --quality {preset}, {seconds:g} s")
                if source == "camera":
                    dump = run_dir / f"{name}.yuyv"
                    dump.unlink(missing_ok=True)
                    argv = ctx.toolbox.camrec_record(mode, "/dev/video0", seconds, out, extra)
                    env = ctx.toolbox.env(mode.vcam("/dev/video0") + f",overrun=wait,dump={dump}")
                else:
                    dump = None
                    argv = ctx.toolbox.camrec_record(mode, "test", seconds, out, extra)
                    env = dict(os.environ)
                    env["NO_COLOR"] = "1"
                child = Child(argv, env, run_dir, name, nice=ctx.nice, timeout=seconds * 8 + 60)
                # The camera's thread makes the YUYV frames and writes them to the dump (55 MB/s): a
                # cost of the measurement, not of camrec, taken out of the figure below.
                sampler = ThreadCpu(child.pid) if source == "camera" else None
                done = child.wait()
                camera = sampler.finish() if sampler else None
                load = load_average().split()[0]
                run = {"source": source, "codec": codec, "preset": preset, "cpu": done.cpu, "wall": done.wall,
                       "load": load, "note": "" if done.returncode == 0 else
                       f"exit {done.returncode}: {done.stderr_tail(1)}"}
                sizes = packet_sizes(out) if out.exists() else []
                frames = len(sizes)
                run["frames"] = frames or None
                run["cpu_per_s"] = done.cpu / (frames / mode.fps) if frames else None
                run["camera_per_s"] = camera / (frames / mode.fps) if frames and camera is not None else None
                run["own_per_s"] = (run["cpu_per_s"] - (run["camera_per_s"] or 0)) if frames else None
                run["bytes_per_s"] = sum(sizes) / (frames / mode.fps) if frames else None
                info = stream_info(out) if out.exists() else {}
                run["stream"] = f"{info.get('codec_name', '?')} {info.get('pix_fmt', '?')}"
                run["psnr"] = run["ssim"] = run["dropped"] = None
                # camrec's own count: frames due before its time limit that it did not store (also
                # those still waiting in the camera when it stopped, which no stamp shows).
                run["reported"] = camrec_result(done).get("dropped_frames")
                run["aligned"] = ""
                if frames and source == "camera":
                    movie_stamps = stamps(out, mode.width, mode.height)
                    known = [s for s in movie_stamps if s is not None]
                    if known:
                        run["dropped"] = max(known) + 1 - frames
                    dump_stamps = stamps(dump, mode.width, mode.height,
                                         ["-f", "rawvideo", "-pix_fmt", "yuyv422", "-s", mode.size, "-r", "30"])
                    start, n = align(movie_stamps, dump_stamps)
                    if start is not None and n:
                        run["psnr"], run["ssim"] = quality(out, dump, "yuyv422", start, n, run_dir, name)
                        run["aligned"] = f"{n}/{frames} from dump frame {start} (stamp {movie_stamps[0]})"
                    else:
                        run["aligned"] = "not aligned (stamps unreadable)"
                        run["note"] = (run["note"] + " no alignment with the dump").strip()
                elif frames:
                    run["dropped"] = pts_gaps(out, mode.fps)
                    run["psnr"], run["ssim"] = quality(out, ref_test, "yuv420p", 0, frames, run_dir, name)
                    run["movie"] = out
                if dump is not None:
                    dump.unlink(missing_ok=True)   # 550 MB per 10 s
                results.append(run)
    # Alignment check of the test pattern, once, on its best-scoring movie: the first 30 frames
    # against the reference at offsets 0 and 1 (one frame off costs many dB on the moving pattern).
    tests = [r for r in results if r["source"] == "test" and r["psnr"] is not None]
    if tests:
        best = max(tests, key=lambda r: r["psnr"])
        name = f"test-{best['codec']}-{best['preset']}"
        at0, _ = quality(best["movie"], ref_test, "yuv420p", 0, 30, run_dir, name + "-offset0")
        at1, _ = quality(best["movie"], ref_test, "yuv420p", 1, 30, run_dir, name + "-offset1")
        ctx.shared["encoding-test-alignment"] = (name, at0, at1)
    ref_test.unlink(missing_ok=True)
    return results


# ---- 2. --bitrate accuracy --------------------------------------------------------------

def bitrate_runs(ctx: Context, shape: Shape) -> list[dict]:
    mode = YUYV_720
    run_dir = ctx.dir("encoding/bitrate")
    results = []
    for codec in ("h264", "h265"):
        log(f"encoding: {codec} --bitrate {BITRATE}, {shape.bitrate_seconds:g} s")
        out = run_dir / f"{codec}.mp4"
        argv = ctx.toolbox.camrec_record(mode, "/dev/video0", shape.bitrate_seconds, out,
                                         ["--codec", codec, "--bitrate", BITRATE])
        # overrun=wait: the encoder gets every frame at its 30-fps timestamp even when the shared
        # machine slows it down, so the figure is the rate control's, not the load's.
        done = Child(argv, ctx.toolbox.env(mode.vcam("/dev/video0") + ",overrun=wait"), run_dir, codec,
                     nice=ctx.nice, timeout=shape.bitrate_seconds * 8 + 60).wait()
        sizes = packet_sizes(out) if out.exists() else []
        achieved = sum(sizes) * 8 / (len(sizes) / mode.fps) if sizes else None
        dropped = recording_drops(out, mode.width, mode.height, mode.fps, light=True).get("dropped") if sizes else None
        results.append({"codec": codec, "frames": len(sizes), "bps": achieved, "cpu": done.cpu, "wall": done.wall,
                        "dropped": dropped, "reported": camrec_result(done).get("dropped_frames"),
                        "error": (achieved / BITRATE_BPS - 1) if achieved else None,
                        "note": "" if done.returncode == 0 else f"exit {done.returncode}: {done.stderr_tail(1)}"})
    return results


# ---- 2b. H.265 keeping up (issue 37 item 4) ---------------------------------------------

def camrec_lines(done) -> list[dict]:
    """camrec's JSON lines (stdout), [] when unreadable."""
    lines = []
    try:
        for line in Path(done.stdout_path).read_text().splitlines():
            try:
                lines.append(json.loads(line))
            except ValueError:
                pass
    except OSError:
        pass
    return lines


def busy_loops(count: int, nice: int) -> list:
    """`count` processes spinning at `nice` (the measured tool's own): the load of a shared
    machine, the same in every run. Stopped by the caller (terminate, wait)."""
    import subprocess
    import sys
    return [subprocess.Popen(["nice", "-n", str(nice), sys.executable, "-c", "while True: pass"])
            for _ in range(count)]


def keepup_runs(ctx: Context, shape: Shape) -> list[dict]:
    """720p30 H.265 from the emulated camera (YUYV, the default overrun=drop: a frame not
    taken in time is lost, as a real camera's) with --quality auto (the default) against
    --quality high, in alternating order, `keepup_hogs` busy loops beside them."""
    mode = YUYV_720
    run_dir = ctx.dir("encoding/keepup")
    results = []
    hogs = busy_loops(shape.keepup_hogs, ctx.nice)
    try:
        for round_ in range(shape.keepup_rounds):
            order = ("auto", "high") if round_ % 2 == 0 else ("high", "auto")
            for quality in order:
                name = f"h265-{quality}-{round_ + 1}"
                out = run_dir / f"{name}.mp4"
                log(f"encoding: h265 --quality {quality} keeping up, round {round_ + 1}, {shape.keepup_seconds:g} s")
                argv = ctx.toolbox.camrec_record(mode, "/dev/video0", shape.keepup_seconds, out,
                                                 ["--codec", "h265", "--quality", quality])
                done = Child(argv, ctx.toolbox.env(mode.vcam("/dev/video0")), run_dir, name, nice=ctx.nice,
                             timeout=shape.keepup_seconds * 8 + 60).wait()
                lines = camrec_lines(done)
                started = next((l for l in lines if l.get("type") == "started"), {})
                warned = [l.get("message", "") for l in lines
                          if l.get("type") == "warning" and "falling behind" in l.get("message", "")]
                chosen = re.search(r"--quality auto: ([^(]+) \(", started.get("encoding_reason", ""))
                drops = recording_drops(out, mode.width, mode.height, mode.fps, light=True) if out.exists() else {}
                frames = drops.get("frames") or 0
                results.append({
                    "quality": quality, "round": round_ + 1, "frames": frames, "dropped": drops.get("dropped"),
                    "missing": round(shape.keepup_seconds * mode.fps) - frames,
                    "reported": camrec_result(done).get("dropped_frames"), "cpu": done.cpu, "wall": done.wall,
                    "cpu_per_s": done.cpu / (frames / mode.fps) if frames else None,
                    "effort": chosen.group(1).strip() if chosen else "ultrafast, every core",
                    "warned": warned[0] if warned else "", "load": load_average().split()[0],
                    "note": "" if done.returncode == 0 else f"exit {done.returncode}: {done.stderr_tail(1)}"})
    finally:
        for hog in hogs:
            hog.terminate()
        for hog in hogs:
            hog.wait()
    return results


def keepup_report(result: SectionResult, shape: Shape, runs: list[dict]) -> None:
    result.body.append(
        f"**H.265 keeping up** (issue 37 item 4): 1280x720@30 YUYV from the emulated camera with its default "
        "`overrun=drop` (a frame not taken in time is lost, as with a real camera), "
        f"{shape.keepup_seconds:g} s ({round(shape.keepup_seconds * 30)} frames due), `--codec h265` with `--quality auto` (the default: x265's effort timed on "
        "test frames before the start) against `--quality high` (x265 `ultrafast` on its thread pool), "
        f"{shape.keepup_rounds} round(s) in alternating order, with {shape.keepup_hogs} busy loops (python, "
        "the measured tool's nice) beside them for the whole part: a shared machine, the same in every run. "
        "Frames lost: of the frames due, those not in the movie (ffprobe's "
        "count; camrec stops at its length in wall-clock time, so a recording that fell behind also ends before the "
        "camera's last frames, which no stamp gap shows: the stamps' own count is given beside it); "
        "CPU from `wait4(2)` per recorded s (the camera's "
        "own thread included: it only makes YUYV frames here, 0.03 CPU s per s in section 1); whether camrec "
        "warned that the encoder fell behind, and the effort auto chose.")
    rows = [[r["quality"], str(r["round"]), r["effort"], str(r["missing"]), fmt(r["dropped"], "{:.0f}"),
             fmt(r["reported"], "{:.0f}"),
             str(r["frames"]), fmt(r["cpu_per_s"]), f"{r['wall']:.1f} s", "yes" if r["warned"] else "no",
             r["load"], r["note"]] for r in runs]
    result.body.append(table(["--quality", "round", "x265 effort", "lost (not stored of those due)",
                              "lost (stamp gaps)", "dropped (camrec says)",
                              "stored frames", "CPU s per recorded s", "wall", "warned", "load (1 min) after",
                              "notes"], rows))
    warnings = sorted({r["warned"] for r in runs if r["warned"]})
    if warnings:
        result.body.append("Warnings seen: " + "; ".join(f"`{w}`" for w in warnings))
    by = {q: [r for r in runs if r["quality"] == q] for q in ("auto", "high")}
    lost = {q: [r["missing"] for r in rs if r["frames"]] for q, rs in by.items()}
    cpu = {q: [r["cpu_per_s"] for r in rs if r["cpu_per_s"] is not None] for q, rs in by.items()}
    text = "; ".join(f"{q}: {spread(lost[q], '{:.0f}')} lost, {spread(cpu[q], '{:.2f}')} CPU s per s" for q in ("auto", "high"))
    met = bool(lost["auto"]) and all(v == 0 for v in lost["auto"])
    result.summary.append(SummaryRow(
        f"h265 720p30 from the emulated camera with {shape.keepup_hogs} busy loops beside it, --quality auto "
        "against high: frames lost; CPU s per recorded s", text, "no peer", "no peer",
        goal="auto loses no frame", met=met))
    if not met and lost["auto"]:
        result.gaps.append(f"**H.265 --quality auto on a busy machine** (section 10): auto lost "
                           f"{spread(lost['auto'], '{:.0f}')} frames per {shape.keepup_seconds:g}-s run "
                           f"(high {spread(lost['high'], '{:.0f}')}) with {shape.keepup_hogs} busy loops beside it: "
                           "its cheapest effort (ultrafast on one thread) did not keep up with the CPU left to it.")


# ---- 3. passthrough ---------------------------------------------------------------------

def ffmpeg_copy(device: str, frames: int, output: Path) -> list[str]:
    return ["ffmpeg", "-hide_banner", "-nostdin", "-nostats", "-loglevel", "warning",
            "-f", "v4l2", "-input_format", "h264", "-video_size", H264_720.size, "-framerate", str(H264_720.fps),
            "-i", device, "-frames:v", str(frames), "-c:v", "copy",
            "-movflags", "+frag_keyframe+empty_moov+default_base_moof", "-y", str(output)]


def passthrough_commands(ctx: Context, device: str, seconds: float, run_dir: Path) -> dict[str, tuple[list[str], Path]]:
    mode = H264_720
    frames = round(seconds * mode.fps)
    outs = {tool: run_dir / f"{tool}.mp4" for tool in ("camrec", "gst-launch", "ffmpeg")}
    return {
        "camrec": (ctx.toolbox.camrec_record(mode, device, seconds, outs["camrec"], ["--codec", "copy"]), outs["camrec"]),
        "gst-launch": (ctx.toolbox.gst_record(mode, device, frames, outs["gst-launch"], ["--codec", "copy"]),
                       outs["gst-launch"]),
        "ffmpeg": (ffmpeg_copy(device, frames, outs["ffmpeg"]), outs["ffmpeg"]),
    }


def passthrough_runs(ctx: Context, shape: Shape) -> dict:
    mode = H264_720
    tools = ("camrec", "gst-launch", "ffmpeg")
    runs: dict[str, list[dict]] = {tool: [] for tool in tools}
    loads = []
    for r in range(shape.pass_runs):
        run_dir = ctx.dir(f"encoding/passthrough/run{r + 1}")
        order = list(tools[r % 3:]) + list(tools[:r % 3])
        log(f"encoding: passthrough run {r + 1}/{shape.pass_runs}, {shape.pass_seconds:g} s, three tools side by "
            f"side ({', '.join(order)})")
        started = []
        for i, tool in enumerate(order):
            device = f"/dev/video{i}"
            argv, out = passthrough_commands(ctx, device, shape.pass_seconds, run_dir)[tool]
            child = Child(argv, ctx.toolbox.env(mode.vcam(device)), run_dir, tool, nice=ctx.nice,
                          timeout=shape.pass_seconds * 3 + 60)
            started.append((tool, child, ThreadCpu(child.pid), out))
        for tool, child, sampler, out in started:
            done = child.wait()
            camera = sampler.finish()
            check = recording_drops(out, mode.width, mode.height, mode.fps, light=True) if out.exists() else {}
            frames = check.get("frames") or 0
            recorded = frames / mode.fps if frames else None
            runs[tool].append({
                "cpu": done.cpu, "camera": camera, "frames": frames or None, "rss_kb": done.max_rss_kb,
                "cpu_per_s": done.cpu / recorded if recorded else None,
                "camera_per_s": camera / recorded if recorded and camera is not None else None,
                "own_per_s": (done.cpu - camera) / recorded if recorded and camera is not None else None,
                "dropped": check.get("dropped"),
                "codec": stream_info(out).get("codec_name") if out.exists() else None,
                "note": "" if done.returncode == 0 else f"{tool} exit {done.returncode}: {done.stderr_tail(1)}"})
        loads.append(load_average().split()[0])
    # The camera alone: capture only (v4l2src ! fakesink), to show the camera's own cost.
    base = []
    run_dir = ctx.dir("encoding/passthrough/baseline")
    frames = round(shape.baseline_seconds * mode.fps)
    for r in range(shape.pass_runs):
        argv = ["gst-launch-1.0", "-q", "v4l2src", "device=/dev/video0", f"num-buffers={frames}", "!", "fakesink"]
        child = Child(argv, ctx.toolbox.env(mode.vcam("/dev/video0")), run_dir, f"capture{r + 1}", nice=ctx.nice,
                      timeout=120)
        sampler = ThreadCpu(child.pid)
        done = child.wait()
        camera = sampler.finish()
        if done.returncode == 0:
            base.append({"cpu_per_s": done.cpu / (frames / mode.fps),
                         "camera_per_s": camera / (frames / mode.fps) if camera is not None else None})
    return {"runs": runs, "loads": loads, "baseline": base}


# ---- 4. stills from passthrough ---------------------------------------------------------

def gop_decode_ms(ctx: Context) -> float | None:
    """CPU milliseconds of decoding one GOP (30 frames) of the camera's H.264 with avdec_h264,
    as a passthrough still does at most: `v4l2src ! h264parse ! avdec_h264 ! fakesink` minus
    `v4l2src ! h264parse ! fakesink`, 60 frames, median of 3 runs each."""
    run_dir = ctx.dir("encoding/gop-decode")
    cpu = {}
    for name, middle in (("with", ["!", "avdec_h264"]), ("without", [])):
        values = []
        for r in range(3):
            argv = ["gst-launch-1.0", "-q", "v4l2src", "device=/dev/video0", "num-buffers=60", "!", "h264parse",
                    *middle, "!", "fakesink"]
            done = Child(argv, ctx.toolbox.env(H264_720.vcam("/dev/video0")), run_dir, f"{name}{r}", nice=ctx.nice,
                         timeout=60).wait()
            if done.returncode == 0:
                values.append(done.cpu)
        cpu[name] = median(values)
    if cpu["with"] is None or cpu["without"] is None:
        return None
    return max(0.0, (cpu["with"] - cpu["without"]) / 2 * 1000)


def still_runs(ctx: Context, shape: Shape) -> list[dict]:
    runs = []
    for r in range(shape.still_runs):
        log(f"encoding: stills from a passthrough recording, run {r + 1}/{shape.still_runs}")
        runs.append(stills.one_run(ctx, ctx.dir(f"encoding/stills/run{r + 1}"), mode=H264_720,
                                   extra=["--codec", "copy"]))
    return runs


# ---- the report -------------------------------------------------------------------------

def fmt(value, pattern: str = "{:.3f}") -> str:
    return "—" if value is None else pattern.format(value)


def monotonic(values: list, rising: bool = True) -> bool:
    values = [v for v in values if v is not None]
    return len(values) >= 2 and all((b > a) if rising else (b < a) for a, b in zip(values, values[1:]))


def section(ctx: Context) -> SectionResult:
    began = time.monotonic()
    result = SectionResult("encoding", "10. Encoding: codecs, quality presets, bitrate, passthrough")
    code, text = ctx.toolbox.help_text()
    if "--quality" not in text or "--codec" not in text:
        result.measured = False
        result.not_measured = "this camrec has no --codec/--quality"
        return result
    shape = Shape(ctx.settings.quick)
    load_start = load_average()
    presets = encode_runs(ctx, shape)
    rates = bitrate_runs(ctx, shape)
    keepup = keepup_runs(ctx, shape)
    passing = passthrough_runs(ctx, shape)
    gop_ms = gop_decode_ms(ctx)
    jpeg_ms = stills.jpeg_encode_ms(ctx)
    still = still_runs(ctx, shape)
    load_end = load_average()

    # -- 1. presets
    result.method = [
        f"**Codecs × presets.** camrec records {shape.seconds:g} s from the camera and {shape.test_seconds:g} s from "
        f"the test pattern (one run each{'; --quick: presets low and max only' if shape.quick else ''}) "
        "with `--codec C --quality P` for C in h264, h265 (into .mp4) and mjpeg (into .mkv) and every preset, from "
        "two sources at 1280x720@30: the emulated camera in YUYV (with `overrun=wait`, so that the camera loses no "
        "frame even when camrec falls behind: a slow encoder shows as a longer wall time, not as lost frames, and "
        "the movie's frames are the camera's one for one; `dump=PATH` writes every frame it delivered), and the test "
        "pattern (`--device test`, camrec's `videotestsrc is-live=true pattern=smpte horizontal-speed=4`). "
        "CPU = user + system s from `wait4(2)` per recorded s (stored frames / 30). For the camera it includes "
        f"the emulated camera's `{PRODUCER}` thread, which makes the frames (0.03 CPU s per s in section 1) and here "
        "also writes every one to the dump (55 MB/s): that thread's utime + stime (`/proc/PID/task/TID/stat`, sampled "
        "every 0.2 s) is given and taken out (\"without the camera\", the figure in the summary). Bytes per second = the sum of the video packets' sizes (ffprobe) / (stored frames / 30). Dropped "
        "frames: from the camera's frame stamps in the movie (as section 1; test pattern: gaps in the stored "
        "timestamps), and camrec's own count (its JSON `result`), which also counts the frames due before its time "
        "limit that it never took: camrec stops at its limit in wall-clock time, so an encoder slower than 30 fps "
        "ends with fewer frames stored (\"frames in wall time\"), the rest counted as dropped.",
        "Picture quality is computed by ffmpeg 5.1's `psnr` and `ssim` filters on the luma plane only "
        "(`extractplanes=y` on both inputs: no colour conversion or range change — Motion JPEG decodes as full-range "
        "`yuvj420p` — enters the figure; the chroma is not compared), frame by frame (both inputs re-timed to their "
        "frame index with `settb=1/30,setpts=N`: the movie's millisecond timestamps would otherwise pair some frames with their predecessor), PSNR as ffmpeg's average over the frames. References: for the camera, "
        "its `dump=` file (raw YUYV), aligned by the frame stamps: the stamps decoded from the movie and from the "
        "dump say where the movie starts in the dump (the dump may hold earlier streams) and how many frames then "
        "follow one for one (column \"aligned\"); for the test pattern, the frames regenerated with `"
        + ctx.shared.get("encoding-test-reference", "") + "`, frame n of the movie against frame n.",
    ]
    alignment = ctx.shared.get("encoding-test-alignment")
    rows = []
    for r in presets:
        rows.append([r["source"], r["codec"], r["preset"], r["stream"], fmt(r["cpu_per_s"]),
                     fmt(r["camera_per_s"]) if r["source"] == "camera" else "", fmt(r["own_per_s"]),
                     fmt(r["bytes_per_s"] / 1000 if r["bytes_per_s"] else None, "{:.0f}"),
                     fmt(r["bytes_per_s"] * 8 / 1e6 if r["bytes_per_s"] else None, "{:.2f}"),
                     fmt(r["psnr"], "{:.2f}"), fmt(r["ssim"], "{:.4f}"),
                     f"{fmt(r['dropped'], '{:.0f}')} / {fmt(r['reported'], '{:.0f}')}",
                     f"{r['frames'] or 0} in {r['wall']:.1f} s", r["aligned"] or "frame n = n", r["load"], r["note"]])
    result.body.append(table(["source", "codec", "--quality", "stream (ffprobe)", "CPU s per recorded s",
                              f"of it the camera's thread ({PRODUCER}: frames and dump)", "without the camera",
                              "kB per s", "Mbit/s", "PSNR Y (dB)", "SSIM Y", "dropped: stamps / camrec says", "frames in wall time",
                              "aligned with the reference", "load (1 min) after", "notes"], rows))
    if alignment:
        result.body.append(
            f"Alignment check of the test pattern (`{alignment[0]}`, first 30 frames): PSNR Y {fmt(alignment[1], '{:.2f}')} dB "
            f"against reference frames 0… and {fmt(alignment[2], '{:.2f}')} dB against frames 1… (one frame off): the "
            "movie starts at the pattern's frame 0.")
    for source, label in (("camera", "emulated camera 1280x720@30 YUYV"), ("test", "test pattern 1280x720@30")):
        for codec, _ in CODECS:
            rs = [r for r in presets if r["source"] == source and r["codec"] == codec]
            if not rs:
                continue
            cpu = " / ".join(fmt(r["own_per_s"], "{:.2f}") for r in rs)
            rate = " / ".join(fmt(r["bytes_per_s"] / 1000 if r["bytes_per_s"] else None, "{:.0f}") for r in rs)
            psnr = " / ".join(fmt(r["psnr"], "{:.1f}") for r in rs)
            ssim = " / ".join(fmt(r["ssim"], "{:.3f}") for r in rs)
            drops = sum(max(r["dropped"] or 0, r["reported"] or 0) for r in rs)
            ok = monotonic([r["psnr"] for r in rs]) and all(r["dropped"] == 0 and r["reported"] == 0 for r in rs)
            result.summary.append(SummaryRow(
                f"{codec} --quality {'/'.join(shape.presets)}, {label}: CPU s per s (without the camera); kB per s; PSNR Y dB; SSIM Y",
                f"{cpu}; {rate} kB/s; {psnr} dB; {ssim}; {drops} dropped", "—", "—", "—", "—",
                "higher PSNR at each step up; 0 dropped", ok))
            if not ok:
                slow = [f"{r['preset']}: {r['frames'] or 0} of {round((shape.seconds if source == 'camera' else shape.test_seconds) * 30)} "
                        f"frames stored, {r['reported']} dropped by camrec's count, {r['own_per_s'] or 0:.2f} CPU s per s"
                        for r in rs if (r["reported"] or 0) > 0 or (r["dropped"] or 0) > 0]
                result.gaps.append(f"**Encoding presets, {codec}, {label}**: PSNR Y {psnr} dB, {drops} frames dropped"
                                   + (f" ({'; '.join(slow)}"
                                      + (": fewer frames stored than were due, i.e. the encoder did not keep up with "
                                         "30 fps on this shared 2-core machine at the run's load"
                                         if any((r["frames"] or 0) < round((shape.seconds if source == "camera" else
                                                                            shape.test_seconds) * 30) for r in rs)
                                         else "") + ")" if slow else "")
                                   + " (goal: higher PSNR at each step up and nothing dropped).")

    # -- 2. bitrate
    result.body.append(
        f"**`--bitrate {BITRATE}`** ({shape.bitrate_seconds:g} s on the emulated camera, 1280x720@30 YUYV, "
        "`overrun=wait` so that the encoder gets every frame however loaded the machine is): achieved = 8 × the sum "
        "of the video packets' sizes / (stored frames / 30) (the rate control works per frame at the stream's 30 fps, so "
        "the figure holds when frames were dropped too).")
    brows = []
    for r in rates:
        ok = r["error"] is not None and abs(r["error"]) <= 0.15
        brows.append([r["codec"], f"{BITRATE_BPS / 1e6:g} Mbit/s", fmt(r["bps"] / 1e6 if r["bps"] else None, "{:.3f}") + " Mbit/s",
                      fmt(r["error"] * 100 if r["error"] is not None else None, "{:+.1f}") + " %",
                      f"{r['frames']} in {r['wall']:.1f} s", f"{fmt(r['dropped'], '{:.0f}')} / {fmt(r['reported'], '{:.0f}')}",
                      fmt(r["cpu"], "{:.1f}"),
                      r["note"]])
        result.summary.append(SummaryRow(
            f"{r['codec']} `--bitrate {BITRATE}`, {shape.bitrate_seconds:g} s: achieved",
            fmt(r["bps"] / 1e6 if r["bps"] else None, "{:.3f}") + " Mbit/s ("
            + fmt(r["error"] * 100 if r["error"] is not None else None, "{:+.1f}") + " %)",
            goal="within 15 % of asked", met=ok))
        if not ok:
            result.gaps.append(f"**`--bitrate {BITRATE}` with {r['codec']}**: achieved "
                               f"{fmt(r['bps'] / 1e6 if r['bps'] else None, '{:.3f}')} Mbit/s.")
    result.body.append(table(["codec", "asked", "achieved", "error", "stored frames in wall time",
                              "dropped: stamps / camrec says", "CPU s",
                              "notes"], brows))

    # -- 3. passthrough
    runs = passing["runs"]
    base = passing["baseline"]
    result.body.append(
        f"**Passthrough** (`--codec copy`): the emulated camera delivers H.264 at 1280x720@30 (its own x264, "
        f"`ultrafast`/`zerolatency`, an IDR every 30 frames, encoded in the process's `{PRODUCER}` thread); "
        f"{shape.pass_runs} run(s) of {shape.pass_seconds:g} s, the three tools side by side on three emulated cameras "
        "(who starts first rotates): camrec `--codec copy`; gst-launch running camrec's `--codec copy "
        "--print-pipeline` line (with `num-buffers`, as section 1); `ffmpeg -f v4l2 -input_format h264 -video_size "
        "1280x720 -framerate 30 -i DEV -frames:v N -c:v copy` into the same fragmented MP4 as section 1. The camera's "
        f"encoding is in each tool's rusage alike; its own CPU is measured per run from the `{PRODUCER}` thread's "
        "utime + stime (`/proc/PID/task/TID/stat`, sampled every 0.2 s, the last sample before exit), and the "
        "tool's own work is the rest (\"without the camera\"). A capture-only baseline (`gst-launch-1.0 v4l2src ! "
        f"fakesink`, {shape.baseline_seconds:g} s) gives the camera and the bare capture. Dropped frames from the "
        "camera's stamps decoded from each movie (default `overrun=drop`: a frame not taken in time is lost).")
    tools = ("camrec", "gst-launch", "ffmpeg")
    prow = []
    for tool in tools:
        rs = runs[tool]
        prow.append([tool, spread([r["cpu_per_s"] for r in rs]), spread([r["camera_per_s"] for r in rs]),
                     spread([r["own_per_s"] for r in rs]), spread([r["dropped"] for r in rs], "{:.0f}"),
                     spread([r["frames"] for r in rs], "{:.0f}"), spread([r["rss_kb"] / 1024 for r in rs], "{:.0f}", " MB"),
                     ", ".join(sorted({r["codec"] or "?" for r in rs})),
                     "; ".join(sorted({r["note"] for r in rs if r["note"]}))])
    prow.append(["capture only (`v4l2src ! fakesink`)", spread([b["cpu_per_s"] for b in base]),
                 spread([b["camera_per_s"] for b in base]),
                 spread([b["cpu_per_s"] - b["camera_per_s"] for b in base if b["camera_per_s"] is not None]),
                 "", "", "", "", ""])
    result.body.append(table(["tool", "CPU s per recorded s", f"of it the camera ({PRODUCER})", "without the camera",
                              "dropped frames", "stored frames", "peak RSS", "stored codec", "notes"], prow))
    per_run = []
    for i, load in enumerate(passing["loads"]):
        drops_i = [runs[tool][i]["dropped"] if i < len(runs[tool]) else None for tool in tools]
        per_run.append(f"run {i + 1}: {' / '.join(fmt(d, '{:.0f}') for d in drops_i)} (load {load})")
    result.body.append("Dropped frames per run, camrec / gst-launch / ffmpeg, with the load average (1 min) after "
                       "the run: " + "; ".join(per_run) + ".")
    for key, label in (("cpu_per_s", "with the camera's encoding"), ("own_per_s", "without the camera's thread")):
        vs_f = [c[key] / f[key] if c[key] and f[key] else None for c, f in zip(runs["camrec"], runs["ffmpeg"])]
        vs_g = [c[key] / g[key] if c[key] and g[key] else None for c, g in zip(runs["camrec"], runs["gst-launch"])]
        m = median(vs_f)
        ok = m is not None and m <= 1.05
        result.summary.append(SummaryRow(
            f"passthrough CPU s per recorded s, 1280x720@30 H.264 camera, `--codec copy` ({label})",
            spread([r[key] for r in runs["camrec"]]), spread([r[key] for r in runs["gst-launch"]]),
            spread([r[key] for r in runs["ffmpeg"]]), ratio_text(vs_g), ratio_text(vs_f), "≤ 1.05× ffmpeg's copy", ok))
        if not ok and m is not None:
            result.gaps.append(f"**Passthrough CPU ({label})**: camrec {m:.2f}× ffmpeg's `-c:v copy` "
                               f"(camrec {spread([r[key] for r in runs['camrec']])}, ffmpeg "
                               f"{spread([r[key] for r in runs['ffmpeg']])} CPU s per s).")
    drops = [r["dropped"] for r in runs["camrec"]]
    ok = bool(drops) and all(d == 0 for d in drops)
    result.summary.append(SummaryRow("passthrough dropped frames", spread(drops, "{:.0f}"),
                                     spread([r["dropped"] for r in runs["gst-launch"]], "{:.0f}"),
                                     spread([r["dropped"] for r in runs["ffmpeg"]], "{:.0f}"), goal="0", met=ok))
    if not ok:
        result.gaps.append(f"**Passthrough drops**: camrec lost {spread(drops, '{:.0f}')} frames per run.")

    # -- 4. stills
    limit = 2 * 1000 / 30 + (gop_ms or 0) + (jpeg_ms or 0)
    singles = [v * 1000 for run in still for v in run["latency"]]
    burst = [v * 1000 for run in still for v in run["burst_latency"]]
    keepup_report(result, shape, keepup)

    ages = [v * 1000 for run in still for v in run["age"]]
    burst_drops = [r["burst_dropped"] for r in still]
    result.body.append(
        f"**Stills from passthrough**: as section 3 (its harness, `stills.one_run`), on the H.264 camera with "
        f"`--codec copy --stills DIR/still-%04d.jpg`: {ctx.settings.still_singles} single stills "
        f"{stills.SINGLE_GAP:g} s apart, then a burst of {stills.BURST} in {stills.BURST_SECONDS:g} s; "
        f"{shape.still_runs} recording(s). A passthrough still decodes the kept GOP (from its keyframe to the newest "
        "frame) and encodes the JPEG. The goal's GOP decode is measured here: CPU of `avdec_h264` on the camera's "
        "stream (`v4l2src ! h264parse ! avdec_h264 ! fakesink` minus the same without the decoder, 60 frames, "
        "median of 3) for 30 frames; the JPEG encode as in section 3.")
    srows = [
        ["latency, single stills", spread(singles, "{:.0f}", " ms"), f"worst {max(singles):.0f} ms" if singles else ""],
        ["latency, during the burst", spread(burst, "{:.0f}", " ms"), f"worst {max(burst):.0f} ms" if burst else ""],
        ["frame age at trigger (capture − trigger)", spread(ages, "{:+.0f}", " ms"), ""],
        ["stills missing (no `still` line)", str(sum(r["missing"] for r in still)), ""],
        ["stills taken per burst of 20", spread([r.get("burst_taken") for r in still], "{:.0f}"), ""],
        ["movie drops during the burst", spread(burst_drops, "{:.0f}"), ""],
        ["movie drops, whole recording (camrec says)",
         f"{spread([r['dropped'] for r in still], '{:.0f}')} ({spread([r['reported_dropped'] for r in still], '{:.0f}')})", ""],
        ["decoding one GOP (30 frames) of the camera's 720p H.264 (avdec_h264)", fmt(gop_ms, "{:.0f}") + " ms CPU", ""],
        ["one 1280x720 JPEG encode (jpegenc q=90)", fmt(jpeg_ms, "{:.1f}") + " ms CPU", ""],
    ]
    result.body.append(table(["figure", "median (min–max)", ""], srows))
    result.body.append("Single-still latencies in the order taken, per recording: " + "; ".join(
        ", ".join(f"{v * 1000:.0f}" for v in run["latency"]) + " ms" for run in still) + ".")
    notes = sorted({r["note"] for r in still if r["note"]})
    if notes:
        result.body.append("Notes: " + "; ".join(notes))
    every = singles + burst
    lat_ok = bool(every) and max(every) < limit and all(r["missing"] == 0 for r in still)
    result.summary.append(SummaryRow(
        "still latency from a passthrough recording (trigger → file), singles and burst",
        f"median {median(every):.0f} ms, worst {max(every):.0f} ms" if every else "—", "no peer", "no peer",
        goal=f"< {limit:.0f} ms (2 × 33.3 ms + one GOP decode {fmt(gop_ms, '{:.0f}')} ms + JPEG {fmt(jpeg_ms, '{:.0f}')} ms)",
        met=lat_ok))
    drop_ok = bool(burst_drops) and all(d == 0 for d in burst_drops)
    result.summary.append(SummaryRow("movie drops during a burst of 20 stills in 2 s, passthrough",
                                     spread(burst_drops, "{:.0f}"), "no peer", "no peer", goal="0", met=drop_ok))
    if not lat_ok and every:
        firsts = [run["latency"][0] * 1000 for run in still if run["latency"]]
        rest = [v * 1000 for run in still for v in run["latency"][1:] + run["burst_latency"]]
        result.gaps.append(f"**Passthrough still latency**: median {median(every):.0f} ms, worst {max(every):.0f} ms "
                           f"against {limit:.0f} ms; the first still of each recording took "
                           f"{', '.join(f'{v:.0f}' for v in firsts)} ms, every later one at most "
                           f"{max(rest):.0f} ms" + (" (likely a cold start: the first still loads the decoder plugin, libav, into the process)."
                                                     if rest and max(rest) < limit else "."))
    if not drop_ok:
        result.gaps.append(f"**Drops during a passthrough still burst**: {spread(burst_drops, '{:.0f}')} per burst.")
    result.body.append(f"Load average (1, 5, 15 min) at the start of this section: {load_start}; at its end: {load_end} "
                       f"(2 cores, shared with other builds). Section time: {(time.monotonic() - began) / 60:.1f} min.")
    result.seconds = time.monotonic() - began
    return result
