"""The CPU a video filter costs per frame, without camera or encoder: 1280x720 I420 frames through
a GStreamer element (camrec's own from the release build's libgstcamrec.so, or GStreamer's) or
through an ffmpeg filter, each minus a pass-through run of the same tool. Shared by the picture
(section 9) and masks (section 22) sections."""
from __future__ import annotations

import os

from .common import Child, median
from .section import Context

CAPS = "video/x-raw,format=I420,width=1280,height=720,framerate=30/1"


class FilterTimer:
    """Times filters on `frames` frames in `run_dir`; `gst` and `ffmpeg` give ms per frame over
    the pass-through, one value per run."""

    def __init__(self, ctx: Context, run_dir, frames: int):
        self.ctx, self.run_dir, self.frames = ctx, run_dir, frames
        self.base_gst = median([self._gst([], f"gst-pass{r}") for r in range(3)])
        self.base_ffmpeg = median([self._ffmpeg("null", f"ff-pass{r}") for r in range(3)])

    def _gst(self, middle: list[str], name: str) -> float:
        argv = ["gst-launch-1.0", "-q", "videotestsrc", f"num-buffers={self.frames}", "pattern=snow", "!", CAPS, *middle,
                "!", "fakesink"]
        env = dict(os.environ)
        env["GST_PLUGIN_PATH"] = str(self.ctx.toolbox.plugin_dir)
        return Child(argv, env, self.run_dir, name, nice=self.ctx.nice, timeout=120).wait().cpu

    def _ffmpeg(self, vf: str, name: str) -> float:
        argv = ["ffmpeg", "-v", "error", "-nostdin", "-f", "lavfi", "-i", "testsrc2=s=1280x720:r=30,format=yuv420p",
                "-frames:v", str(self.frames), "-vf", vf, "-f", "null", "-"]
        return Child(argv, dict(os.environ), self.run_dir, name, nice=self.ctx.nice, timeout=120).wait().cpu

    def gst(self, middle: list[str], name: str, runs: int = 3) -> list[float]:
        """ms per frame of the elements `middle` (gst-launch words, starting with "!")."""
        return [(self._gst(middle, f"{name}-{r}") - self.base_gst) / self.frames * 1000 for r in range(runs)]

    def ffmpeg(self, vf: str, name: str, runs: int = 3) -> list[float]:
        """ms per frame of the ffmpeg filter graph `vf`."""
        return [(self._ffmpeg(vf, f"{name}-{r}") - self.base_ffmpeg) / self.frames * 1000 for r in range(runs)]


def cameras_for(run: int, variant: int) -> tuple[str, str]:
    """The two emulated cameras, camrec's first: which tool gets which alternates."""
    return ("/dev/video0", "/dev/video1") if (run + variant) % 2 == 0 else ("/dev/video1", "/dev/video0")


def side_by_side(ctx: Context, run_dir, key: str, devices: tuple[str, str], camrec: tuple[list[str], object],
                 ffmpeg: tuple[list[str], object], camrec_first: bool, seconds: float) -> list[tuple[str, object, object]]:
    """Runs camrec and ffmpeg at the same time, each on its own of the two 1280x720@30 YUYV emulated
    cameras `devices` (camrec's first), the one asked for first started first; `camrec` and `ffmpeg`
    are (argv, output). Returns (tool, finished child, output) for each, once both have ended."""
    env = ctx.toolbox.env(f"{devices[0]},formats=yuyv,sizes=1280x720@30;{devices[1]},formats=yuyv,sizes=1280x720@30")
    order = [("camrec", *camrec), ("ffmpeg", *ffmpeg)]
    if not camrec_first:
        order.reverse()
    started = [(tool, Child(argv, env, run_dir, f"{tool}-{key}", nice=ctx.nice, timeout=seconds * 3 + 60), out)
               for tool, argv, out in order]
    return [(tool, child.wait(), out) for tool, child, out in started]
