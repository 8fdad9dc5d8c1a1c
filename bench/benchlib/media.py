"""Checking the files the tools wrote, independently of them: ffprobe, and the frame stamp
that the emulated camera (and the trim input) carries in its top rows."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

from .common import run_quiet


def band_height(width: int) -> int:
    """Rows of the frame stamp (docs/virtual-camera.md): floor(width/40/16)*16, or 8."""
    return (width // 40 // 16) * 16 or 8


def decode_stamp(gray: bytes, width: int, band: int) -> int | None:
    """The number in one frame's stamp band (gray, band rows x width), or None when the band
    is not a valid stamp (reference blocks not distinct, or the parity does not match)."""
    lo, hi = band // 4, 3 * band // 4

    def block_mean(k: int) -> float:
        x0, x1 = k * band + lo, k * band + hi
        total = 0
        for y in range(lo, hi):
            total += sum(gray[y * width + x0:y * width + x1])
        return total / ((hi - lo) * (x1 - x0))

    means = [block_mean(k) for k in range(35)]
    if means[0] - means[1] < 40:
        return None
    threshold = (means[0] + means[1]) / 2
    bits = [1 if m > threshold else 0 for m in means[2:35]]
    if sum(bits) % 2:
        return None
    value = 0
    for bit in bits[:32]:
        value = value * 2 + bit
    return value


def stamps(path: Path, width: int, height: int, before_input: list[str] = (),
           after_input: list[str] = (), y: int = 0) -> list[int | None]:
    """The stamps of the frames ffmpeg decodes from path (in display order); y: the camera
    picture's top row in the frame (a cell of a composed canvas), width its width."""
    band = band_height(width)
    argv = ["ffmpeg", "-nostdin", "-v", "error", "-skip_loop_filter", "all", *before_input, "-i", str(path),
            *after_input, "-an", "-vf", f"crop={width}:{band}:0:{y},format=gray",
            "-fps_mode", "passthrough", "-f", "rawvideo", "-"]
    data = subprocess.run(argv, capture_output=True, check=True, stdin=subprocess.DEVNULL).stdout
    size = width * band
    return [decode_stamp(data[i:i + size], width, band) for i in range(0, len(data) - size + 1, size)]


def first_stamp(path: Path, width: int, height: int, ignore_editlist: bool = False) -> int | None:
    before = ["-ignore_editlist", "1"] if ignore_editlist else []
    found = stamps(path, width, height, before, ["-frames:v", "1"])
    return found[0] if found else None


def last_stamp(path: Path, width: int, height: int) -> int | None:
    """The stamp of the last displayed frame (decodes only the last few seconds)."""
    found = [s for s in stamps(path, width, height, ["-sseof", "-3"]) if s is not None]
    if not found:
        found = [s for s in stamps(path, width, height) if s is not None]
    return found[-1] if found else None


def image_stamp(path: Path, width: int, height: int) -> int | None:
    found = stamps(path, width, height)
    return found[0] if found else None


def probe_video(path: Path) -> dict:
    """Packets (= stored frames), duration and size of the first video stream, without decoding."""
    out = run_quiet(["ffprobe", "-v", "error", "-select_streams", "v:0", "-count_packets",
                     "-show_entries", "stream=nb_read_packets,width,height,codec_name,duration:format=duration",
                     "-of", "json", str(path)], check=False)
    info = {"packets": None, "duration": None, "codec": None}
    if out.returncode != 0:
        return info
    data = json.loads(out.stdout or "{}")
    streams = data.get("streams") or [{}]
    stream = streams[0]
    if stream.get("nb_read_packets") is not None:
        info["packets"] = int(stream["nb_read_packets"])
    duration = stream.get("duration") or data.get("format", {}).get("duration")
    info["duration"] = float(duration) if duration else None
    info["codec"] = stream.get("codec_name")
    return info


def pts_gaps(path: Path, fps: float) -> int:
    """Frames missing according to the stored timestamps (a cross-check of the stamps)."""
    out = run_quiet(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
                     "packet=pts_time", "-of", "csv=p=0", str(path)], check=False)
    times = sorted(float(t) for t in out.stdout.split() if t and t != "N/A")
    interval = 1.0 / fps
    missing = 0
    for a, b in zip(times, times[1:]):
        steps = round((b - a) / interval)
        if steps > 1:
            missing += steps - 1
    return missing


def x264_settings(path: Path) -> str | None:
    """The option string x264 writes into its SEI (what the encoder really ran with)."""
    try:
        with open(path, "rb") as movie:
            head = movie.read(4 << 20)
    except OSError:
        return None
    match = re.search(rb"x264 - core [^\x00]*?options: ([ -~]+)", head)
    return match.group(1).decode() if match else None


def cell_losses(path: Path, width: int, y: int) -> dict:
    """One camera's frames in its cell of a composed movie (a picture `width` wide whose top
    row is y, at the camera's own size): the camera frames shown (distinct stamps), those
    missing between the first and the last shown (lost before the canvas: the cell showed
    the frame before again), and canvas frames whose cell stamp did not read."""
    found = stamps(path, width, 0, y=y)
    read = [s for s in found if s is not None]
    shown = len(set(read))
    missing = (max(read) - min(read) + 1 - shown) if read else None
    return {"shown": shown, "missing": missing, "unread": len(found) - len(read)}


def recording_drops(path: Path, width: int, height: int, fps: float, light: bool = False) -> dict:
    """Frames in the file and frames lost, by the camera's stamps: the camera numbers its
    frames from 0 at STREAMON, so (last stamp + 1) - stored frames were lost (before the
    first one or in between), whatever the tool's own timestamps say. light: only what the
    count of lost frames needs (no first stamp, no cross-check of the stored timestamps)."""
    info = probe_video(path)
    result = {"frames": info["packets"], "duration": info["duration"], "first": None, "last": None,
              "dropped": None, "pts_gaps": None, "ok": False}
    if not info["packets"]:
        return result
    if not light:
        result["first"] = first_stamp(path, width, height)
    result["last"] = last_stamp(path, width, height)
    if result["last"] is not None:
        result["dropped"] = result["last"] + 1 - info["packets"]
        result["ok"] = True
    if not light:
        result["pts_gaps"] = pts_gaps(path, fps)
    return result
