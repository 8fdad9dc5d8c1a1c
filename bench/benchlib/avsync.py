"""A/V sync, measured in the movie: the emulated camera flashes its picture (VirtualCamera
flash=PERIOD) and Tests/Fixtures/ClickPlayer/clickplayer.c clicks into a test PulseAudio
sink at the same CLOCK_MONOTONIC instants; a recorder records the camera and the sink's
monitor; ffprobe/ffmpeg (independent of every recorder) find the flashes and the clicks in
the file, and each click minus its flash is the A/V offset (positive: the sound is late).

The same measurement as Tests/CamrecTests/Support/AVSync.swift:
  flashes  first frame of each flash (mean luma of a frame well above the movie's median),
           at its PTS (ffprobe's best-effort timestamp, the demuxer's edit list applied);
  clicks   first sample above 0.35 of the track's peak after 100 ms of quiet, at the PTS
           of its decoded audio frame plus its index in that frame / sample rate (the
           encoder's priming removed as ffprobe and ffmpeg remove it);
  offsets  each click paired with the nearest flash, when nearer than max_pair seconds.

sound_server() starts a user-space PulseAudio with a null sink and the click player for a
bench run; stop it with .stop().
"""

from __future__ import annotations

import array
import bisect
import dataclasses
import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
CLICKPLAYER_SOURCE = ROOT / "Tests" / "Fixtures" / "ClickPlayer" / "clickplayer.c"


def _ffprobe(path: Path, stream: str, entries: str) -> dict:
    argv = ["ffprobe", "-v", "error", "-select_streams", stream, "-show_entries", entries, "-of", "json", str(path)]
    out = subprocess.run(argv, capture_output=True, text=True, check=True, stdin=subprocess.DEVNULL).stdout
    return json.loads(out)


def _ffprobe_frames(path: Path, stream: str, entries: str) -> list[dict]:
    return _ffprobe(path, stream, f"frame={entries}").get("frames", [])


def _time(field) -> float | None:
    try:
        return float(field)
    except (TypeError, ValueError):
        return None


def flash_times(path: Path) -> list[float]:
    """The PTS (seconds, the file's timeline) of the first frame of each flash."""
    times = [_time(f.get("best_effort_timestamp_time")) for f in _ffprobe_frames(path, "v:0", "best_effort_timestamp_time")]
    w, h = 64, 48
    argv = ["ffmpeg", "-nostdin", "-v", "error", "-i", str(path), "-map", "0:v:0",
            "-vf", f"scale={w}:{h},format=gray", "-fps_mode", "passthrough", "-f", "rawvideo", "-"]
    data = subprocess.run(argv, capture_output=True, check=True, stdin=subprocess.DEVNULL).stdout
    size = w * h
    means = [sum(data[i:i + size]) / size for i in range(0, len(data) - size + 1, size)]
    if len(means) != len(times):
        raise RuntimeError(f"{path}: ffmpeg decoded {len(means)} frames, ffprobe listed {len(times)}")
    if not means:
        return []
    ordered = sorted(means)
    median, top = ordered[len(ordered) // 2], ordered[-1]
    if top - median < 40:
        return []
    threshold = (median + top) / 2
    flashes, before = [], False
    for t, m in zip(times, means):
        bright = m > threshold
        if bright and not before and t is not None:
            flashes.append(t)
        before = bright
    return flashes


def click_times(path: Path, quiet: float = 0.1) -> list[float]:
    """The time (seconds, the file's timeline) of each click's first sample."""
    frames = _ffprobe_frames(path, "a:0", "best_effort_timestamp_time,nb_samples")
    rate = int(_ffprobe(path, "a:0", "stream=sample_rate")["streams"][0]["sample_rate"])
    argv = ["ffmpeg", "-nostdin", "-v", "error", "-i", str(path), "-map", "0:a:0", "-ac", "1",
            "-c:a", "pcm_f32le", "-f", "f32le", "-"]
    samples = array.array("f")
    samples.frombytes(subprocess.run(argv, capture_output=True, check=True, stdin=subprocess.DEVNULL).stdout)
    counts = [int(f["nb_samples"]) for f in frames]
    if sum(counts) != len(samples):
        raise RuntimeError(f"{path}: ffmpeg decoded {len(samples)} samples, ffprobe listed {sum(counts)}")
    if not samples:
        return []
    peak = max(abs(min(samples)), abs(max(samples)))
    threshold = max(0.35 * peak, 0.05)
    # each sample's time: its frame's PTS + its index in the frame / rate
    starts, index = [], 0
    for count in counts:
        starts.append(index)
        index += count
    clicks, last_loud = [], None
    for i in _loud(samples, threshold):
        k = bisect.bisect_right(starts, i) - 1
        pts = _time(frames[k].get("best_effort_timestamp_time"))
        if pts is not None:
            t = pts + (i - starts[k]) / rate
            if last_loud is None or t - last_loud >= quiet:
                clicks.append(t)
            last_loud = t
    return clicks


def _loud(samples: array.array, threshold: float, block: int = 480):
    """Indices of the samples above threshold in magnitude (blocks scanned with max/min, which
    run in C, so a 10-minute track takes seconds)."""
    for start in range(0, len(samples), block):
        part = samples[start:start + block]
        if max(part) > threshold or -min(part) > threshold:
            for j, v in enumerate(part):
                if abs(v) > threshold:
                    yield start + j


@dataclasses.dataclass
class Sync:
    flashes: list[float]
    clicks: list[float]
    offsets: list[float]          # click - nearest flash, seconds, in click order

    @property
    def first(self) -> float | None:
        return self.offsets[0] if self.offsets else None

    @property
    def last(self) -> float | None:
        return self.offsets[-1] if self.offsets else None


def measure(path: Path, max_pair: float = 0.5) -> Sync:
    """Flashes, clicks and the offsets (audio - video) of the clicks that have a flash
    within max_pair seconds."""
    flashes, clicks = flash_times(path), click_times(path)
    offsets = []
    for c in clicks:
        if flashes:
            nearest = min(flashes, key=lambda f: abs(c - f))
            if abs(c - nearest) <= max_pair:
                offsets.append(c - nearest)
    return Sync(flashes, clicks, offsets)


def start_and_end_offsets(path: Path) -> tuple[float | None, float | None]:
    """The A/V offset (seconds, audio - video) at the first and at the last flash."""
    sync = measure(path)
    return sync.first, sync.last


def ffmpeg_peer_argv(device: str, monitor: str, seconds: float, output: Path, width: int = 640,
                     height: int = 480, fps: int = 30, input_format: str = "mjpeg",
                     audio_codec: str = "aac") -> list[str]:
    """ffmpeg recording the camera and the monitor as a fair peer: its default v4l2 timestamps
    (its best and steadiest sync of default/abs/mono2abs/wall clock, measured: see
    docs/av-sync-harness.md), x264 ultrafast, AAC (or audio_codec, e.g. libopus for MKV)."""
    return ["ffmpeg", "-nostdin", "-v", "error", "-y",
            "-thread_queue_size", "512", "-f", "v4l2", "-input_format", input_format,
            "-framerate", str(fps), "-video_size", f"{width}x{height}", "-i", device,
            "-thread_queue_size", "512", "-f", "pulse", "-i", monitor,
            "-t", str(seconds), "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
            "-c:a", audio_codec, str(output)]


# ---- the sound server and the click player, for a bench run --------------------------


def build_clickplayer(out_dir: Path) -> Path:
    target = out_dir / "clickplayer"
    if not target.exists() or target.stat().st_mtime < CLICKPLAYER_SOURCE.stat().st_mtime:
        compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
        if not compiler:
            raise SystemExit("bench: no C compiler (cc) to build the click player")
        subprocess.run([compiler, "-std=gnu11", "-O2", "-o", str(target), str(CLICKPLAYER_SOURCE), "-lm"],
                       check=True, capture_output=True)
    return target


class SoundServer:
    """A user-space PulseAudio with the null sink `sink` (stereo, 48 kHz) and the click player
    clicking into it every period_ms. env() is the environment of a client (a recorder):
    record from f"{sink}.monitor". Clicks reach the monitor at multiples of the period on
    CLOCK_MONOTONIC within about 0.1 ms (the player's own check, printed in its log)."""

    def __init__(self, out_dir: Path, period_ms: int = 2000, sink: str = "vsink", timeout: float = 30):
        if not shutil.which("pulseaudio") or not shutil.which("pacat"):
            raise SystemExit("bench: the sound benchmark needs pulseaudio and pulseaudio-utils (scripts/deps)")
        self.sink = sink
        self.folder = Path(tempfile.mkdtemp(prefix="camrec-bench-pulse-"))
        base = dict(os.environ)
        base.update(XDG_RUNTIME_DIR=str(self.folder), HOME=str(self.folder),
                    PULSE_SERVER=f"unix:{self.folder}/pulse/native")
        self._env = base
        self.server_log = out_dir / "pulseaudio.log"
        self.player_log = out_dir / "clickplayer.log"
        self.server = subprocess.Popen(
            ["pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1", "--use-pid-file=no",
             "--disable-shm=true", "--log-target=stderr", "--load=module-native-protocol-unix",
             f"--load=module-null-sink sink_name={sink} channels=2 rate=48000"],
            env=base, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=open(self.server_log, "w"))
        self.player = None
        deadline = time.monotonic() + timeout
        while subprocess.run(["pactl", "info"], env=base, capture_output=True).returncode != 0:
            if self.server.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise SystemExit(f"bench: the test sound server did not start (see {self.server_log})")
            time.sleep(0.1)
        player = build_clickplayer(out_dir)
        self.player = subprocess.Popen([str(player), "--sink", sink, "--period-ms", str(period_ms)],
                                       env=base, stdin=subprocess.DEVNULL, stdout=open(self.player_log, "w"),
                                       stderr=subprocess.STDOUT)
        while "locked" not in self.player_log.read_text():
            if self.player.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise SystemExit(f"bench: the click player did not lock on (see {self.player_log})")
            time.sleep(0.05)

    def env(self, base: dict[str, str] | None = None) -> dict[str, str]:
        env = dict(base if base is not None else os.environ)
        for key in ("XDG_RUNTIME_DIR", "HOME", "PULSE_SERVER"):
            env[key] = self._env[key]
        return env

    @property
    def monitor(self) -> str:
        return f"{self.sink}.monitor"

    def click_errors_ms(self) -> list[float]:
        """The player's own check: how far each click reached the monitor from its instant."""
        errors = []
        for line in self.player_log.read_text().splitlines():
            if line.startswith("click ") and " error " in line:
                errors.append(float(line.split(" error ")[1].split()[0]))
        return errors

    def stop(self) -> None:
        for proc in (self.player, self.server):
            if proc and proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


def sound_server(out_dir: Path, period_ms: int = 2000) -> SoundServer:
    """Starts a test sound server with the click player locked on; returns it."""
    return SoundServer(out_dir, period_ms)
