"""The three tools under test and how each is told to do the same work.

camrec is the subject. gst-launch-1.0 runs the pipeline camrec prints with --print-pipeline
(the truest peer: same elements, same properties). ffmpeg gets the same encoder settings
(x264 veryfast/zerolatency, GOP, bitrate and VBV as x264enc sets them) and a fragmented MP4.
All three read the same emulated camera through LD_PRELOAD, with the probe in front of it.
"""

from __future__ import annotations

import dataclasses
import os
import re
import shlex
import shutil
import subprocess
import time
from pathlib import Path

from .common import log, run_quiet

TOOLS = ("camrec", "gst-launch", "ffmpeg")


@dataclasses.dataclass(frozen=True)
class Mode:
    """A camera mode: what the emulated camera offers and what is recorded."""

    name: str          # e.g. "1280x720@30 YUYV"
    width: int
    height: int
    fps: int
    fourcc: str        # "yuyv" or "mjpeg" (VirtualCamera format names)

    @property
    def size(self) -> str:
        return f"{self.width}x{self.height}"

    def vcam(self, device: str) -> str:
        return f"{device},formats={self.fourcc},sizes={self.size}@{self.fps}"

    @property
    def ffmpeg_input_format(self) -> str:
        return {"yuyv": "yuyv422", "mjpeg": "mjpeg", "h264": "h264"}[self.fourcc]


YUYV_720 = Mode("1280x720@30 YUYV", 1280, 720, 30, "yuyv")
MJPEG_1080 = Mode("1920x1080@30 MJPEG", 1920, 1080, 30, "mjpeg")
YUYV_480 = Mode("640x480@30 YUYV", 640, 480, 30, "yuyv")
H264_720 = Mode("1280x720@30 H.264", 1280, 720, 30, "h264")


class Toolbox:
    """Paths of the built products and the commands for each tool."""

    def __init__(self, package: Path, out: Path, scratch: Path | None, build: bool, nice: int):
        self.package = package
        self.out = out
        self.scratch = scratch
        self.nice = nice
        self.build_note = ""
        self.build_requested = build   # also the test binary's build (section 5's pipeline churn)
        if build:
            self.build()
        bin_dir = self.bin_dir()
        self.camrec = bin_dir / "camrec"
        self.vcam = bin_dir / "libVirtualCamera.so"
        # The folder of libgstcamrec.so (camrecflip), for GST_PLUGIN_PATH.
        self.plugin_dir = bin_dir
        for path in (self.camrec, self.vcam):
            if not path.exists():
                raise SystemExit(f"bench: {path} is missing: build first (swift build -c release)")
        self.probe = self.build_probe()
        self._pipelines: dict[tuple, str] = {}
        self.gst_changes: list[str] = []

    # ---- building ----------------------------------------------------------------------

    def swift_build_args(self) -> list[str]:
        args = ["swift", "build", "-c", "release"]
        if self.scratch:
            args += ["--scratch-path", str(self.scratch)]
        return args

    def bin_dir(self) -> Path:
        out = run_quiet(self.swift_build_args() + ["--show-bin-path"], cwd=self.package)
        return Path(out.stdout.strip().splitlines()[-1])

    def build(self) -> None:
        # gstcamrec: camrec's own elements as a plugin (libgstcamrec.so), for gst-launch-1.0.
        for product in ("camrec", "VirtualCamera", "gstcamrec"):
            for attempt in range(4):
                log(f"building {product} (release)…")
                done = subprocess.run(self.swift_build_args() + ["--product", product], cwd=self.package,
                                      capture_output=True, text=True)
                if done.returncode == 0:
                    break
                # Others may be editing sources while we build: SwiftPM then refuses with
                # "was modified during the build"; try again after a pause.
                if "modified during the build" in done.stdout + done.stderr and attempt < 3:
                    time.sleep(10)
                    continue
                tail = (done.stdout + done.stderr)[-3000:]
                try:
                    existing = self.bin_dir() / ("camrec" if product == "camrec" else f"lib{product}.so")
                except subprocess.CalledProcessError:
                    existing = None
                if existing and existing.exists():
                    # Others may have work in progress that does not compile right now: measure the
                    # last good build rather than nothing, and say so in the report.
                    log(f"build of {product} failed; measuring the previous build:\n{tail[-800:]}")
                    self.build_note = f"the build failed at the time of the run; the previous build of {product} was measured"
                    break
                raise SystemExit("bench: build failed:\n" + tail)

    def build_probe(self) -> Path:
        source = Path(__file__).resolve().parent.parent / "probe" / "frame_probe.c"
        target = self.out / "frame_probe.so"
        if not target.exists() or target.stat().st_mtime < source.stat().st_mtime:
            compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
            if not compiler:
                raise SystemExit("bench: no C compiler (cc) to build bench/probe/frame_probe.c")
            run_quiet([compiler, "-O2", "-shared", "-fPIC", "-o", target, source, "-ldl", "-lpthread"])
        return target

    # ---- environment -------------------------------------------------------------------

    def env(self, vcam: str, probe_log: Path | None = None, probe_max: int = 120) -> dict[str, str]:
        env = dict(os.environ)
        env.pop("GST_V4L2_USE_LIBV4L2", None)
        env["LD_PRELOAD"] = f"{self.probe}:{self.vcam}"
        env["CAMREC_VCAM"] = vcam
        env["NO_COLOR"] = "1"
        if probe_log:
            env["BENCH_PROBE_LOG"] = str(probe_log)
            env["BENCH_PROBE_MAX"] = str(probe_max)
        else:
            env.pop("BENCH_PROBE_LOG", None)
        return env

    # ---- versions ----------------------------------------------------------------------

    def camrec_version(self) -> str:
        return run_quiet([self.camrec, "--version"], check=False).stdout.strip()

    def help_text(self, *args: str) -> tuple[int, str]:
        """A command's help in full: its brief help lists each option group as a topic
        ("(camrec help output)", issue 32), whose full text (the options' whole help and the
        group's discussion) is where the sections look for what camrec can do."""
        done = run_quiet([self.camrec, *args, "--help"], check=False)
        text = done.stdout + done.stderr
        for topic in dict.fromkeys(re.findall(r"\(camrec help ([a-z-]+)\)", text)):
            full = run_quiet([self.camrec, *args, "--help", topic], check=False)
            if full.returncode == 0:
                text += "\n" + full.stdout
        return done.returncode, text

    # ---- commands ----------------------------------------------------------------------

    def camrec_record(self, mode: Mode, device: str, seconds: float, output: Path, extra=()) -> list[str]:
        return [str(self.camrec), "--device", device, "--size", mode.size, "--fps", str(mode.fps),
                "--max-duration", f"{seconds:g}", "--json", "--force", *extra, str(output)]

    def pipeline(self, mode: Mode, device: str, output: Path, extra=()) -> str:
        """camrec's own gst-launch line for this mode (asked of camrec, against the same camera),
        with camrec's options `extra` (e.g. --codec copy)."""
        key = (mode, device, str(output), tuple(extra))
        if key not in self._pipelines:
            env = self.env(mode.vcam(device))
            done = run_quiet([self.camrec, "--device", device, "--size", mode.size, "--fps", str(mode.fps),
                              *extra, "--print-pipeline", "--force", str(output)], env=env)
            line = done.stdout.strip().splitlines()[-1]
            if not line.startswith("gst-launch-1.0"):
                raise SystemExit(f"bench: camrec --print-pipeline printed no gst-launch line: {line}")
            self._pipelines[key] = line
        return self._pipelines[key]

    def convert_caps(self, mode: Mode) -> str:
        """The caps camrec puts after videoconvert (e.g. video/x-raw,format=I420,colorimetry=bt601)."""
        match = re.search(r"videoconvert ! (\S+)", self.pipeline(mode, "/dev/video0", Path("probe.mp4")))
        return match.group(1) if match else "video/x-raw,format=I420"

    def encoder_settings(self, mode: Mode) -> dict[str, str]:
        """x264enc's properties in camrec's pipeline (the peers' settings are derived from them)."""
        line = self.pipeline(mode, "/dev/video0", Path("probe.mp4"))
        match = re.search(r"x264enc ([^!]*)", line)
        settings = dict(item.split("=", 1) for item in shlex.split(match.group(1)) if "=" in item) if match else {}
        return settings

    def gst_record(self, mode: Mode, device: str, frames: int, output: Path, extra=()) -> list[str]:
        """camrec's printed pipeline, run by gst-launch-1.0 -e, changed in two places only:
        v4l2src stops after `frames` buffers (gst-launch has no duration limit), and the stills
        appsink gets wait-on-eos=false (see the report: as printed, gst-launch waits forever at
        EOS for someone to pull the buffer that the appsink holds)."""
        words = shlex.split(self.pipeline(mode, device, output, extra))
        assert words[:2] == ["gst-launch-1.0", "-e"], words[:2]
        body = words[2:]
        result: list[str] = []
        self.gst_changes = ["`num-buffers=N` on `v4l2src`"]
        element = []          # the words of the element being copied
        for word in body + ["!"]:
            if word != "!" and not word.endswith("."):
                element.append(word)
                continue
            if element and element[0] == "v4l2src":
                element.insert(1, f"num-buffers={frames}")
            if element and element[0] == "appsink" and not any(w.startswith("wait-on-eos=") for w in element):
                element.append("wait-on-eos=false")
                self.gst_changes.append("`wait-on-eos=false` on the stills `appsink`")
            element = [f"location={output}" if w.startswith("location=") else w for w in element]
            result.extend(element)
            result.append(word)
            element = []
        return ["gst-launch-1.0", "-q", "-e", *result[:-1]]

    def ffmpeg_record(self, mode: Mode, device: str, frames: int, output: Path) -> list[str]:
        """ffmpeg with x264enc's settings as camrec sets them: preset, tune, GOP (key-int-max),
        ABR bitrate with x264enc's VBV (max rate = bitrate, buffer = 600 ms), 4:2:0, the camera's
        timestamps passed through (no CFR duplication, as in GStreamer), and a fragmented MP4 with
        a fragment per keyframe (1 s). No colour conversion: see the report on BT.709."""
        s = self.encoder_settings(mode)
        bitrate = int(s.get("bitrate", "2048"))
        vbv_ms = int(s.get("vbv-buf-capacity", "600"))
        return ["ffmpeg", "-hide_banner", "-nostdin", "-nostats", "-loglevel", "warning",
                "-f", "v4l2", "-input_format", mode.ffmpeg_input_format, "-video_size", mode.size,
                "-framerate", str(mode.fps), "-i", device, "-frames:v", str(frames),
                "-c:v", "libx264", "-preset", s.get("speed-preset", "veryfast"),
                "-tune", s.get("tune", "zerolatency"), "-g", s.get("key-int-max", str(mode.fps)),
                "-b:v", f"{bitrate}k", "-maxrate", f"{bitrate}k", "-bufsize", f"{bitrate * vbv_ms // 1000}k",
                "-pix_fmt", "yuv420p", "-fps_mode", "passthrough",
                "-movflags", "+frag_keyframe+empty_moov+default_base_moof", "-y", str(output)]

    def record_command(self, tool: str, mode: Mode, device: str, seconds: float, output: Path) -> list[str]:
        frames = round(seconds * mode.fps)
        if tool == "camrec":
            return self.camrec_record(mode, device, seconds, output)
        if tool == "gst-launch":
            return self.gst_record(mode, device, frames, output)
        return self.ffmpeg_record(mode, device, frames, output)


def machine_facts() -> dict[str, str]:
    facts = {}
    facts["cores"] = str(os.cpu_count())
    model = "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    facts["cpu"] = model
    facts["kernel"] = os.uname().release
    facts["gstreamer"] = run_quiet(["gst-launch-1.0", "--version"], check=False).stdout.splitlines()[1:2]
    facts["gstreamer"] = (facts["gstreamer"][0] if facts["gstreamer"] else "?").replace("GStreamer ", "")
    first = run_quiet(["ffmpeg", "-version"], check=False).stdout.splitlines()
    facts["ffmpeg"] = first[0].split()[2] if first else "?"
    x264 = run_quiet(["gst-inspect-1.0", "x264enc"], check=False).stdout
    match = re.search(r"Version\s+(\S+)", x264)
    facts["x264enc"] = match.group(1) if match else "?"
    try:
        mem = Path("/proc/meminfo").read_text().splitlines()[0].split()[1]
        facts["memory"] = f"{int(mem) // 1024} MB"
    except (OSError, IndexError, ValueError):
        facts["memory"] = "?"
    return facts
