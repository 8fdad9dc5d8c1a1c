"""Section 20: text recognition (issue 34): `camrec text` against the tesseract command line on
the same rendered frames: the character error rate and the time per frame of each, for each
class of picture (cap height 8-48 px; dark on light, light on dark, noise, a busy background).
Frames are rendered with ffmpeg (drawtext, DejaVu Sans, 1280x720), each with two known
phrases. camrec reads a class's frames in one run (its model loaded once); the command line
(Tesseract 5.3's, its defaults: page segmentation 3, its own OpenMP threads) one run a frame,
as a script would. CER: the Levenshtein distance to the drawn text over its length, lines in
reading order. Opt-in (--only textocr); `bench/text-ocr` runs it alone."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
CAP = 0.729  # DejaVu Sans's cap height, in em
PHRASES = ["METER 4721 kWh", "Gate north open", "Line 3 pressure 12.5 bar", "EXIT B7 no parking",
           "Dock 14 loading", "Batch 0093 passed", "Room 218 occupied", "Tank level 67 percent"]
# name, ground (an ffmpeg source), ink, extra drawtext options, noise
STYLES = [
    ("dark on light", "color=c=0xf0f0e8:s=1280x720", "0x202020", "", 0),
    ("light on dark", "color=c=0x101820:s=1280x720", "0xf0f0f0", "", 0),
    ("dark on light, noise", "color=c=0xf0f0e8:s=1280x720", "0x202020", "", 20),
    ("light on dark, noise", "color=c=0x101820:s=1280x720", "0xf0f0f0", "", 20),
    ("busy background", "mandelbrot=s=1280x720", "white", ":borderw=2:bordercolor=black", 0),
    ("busy background, dark ink", "smptehdbars=s=1280x720", "black", "", 12),
]
CAPS = [8, 12, 16, 24, 48]


def levenshtein(a, b):
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        current = [i]
        for j, y in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y)))
        previous = current
    return previous[-1]


def normal(text):
    return "\n".join(" ".join(line.split()) for line in text.splitlines() if line.strip())


def render(path, source, ink, extra, noise, size, phrases):
    draws = [f"drawtext=fontfile={FONT}:text='{text}':fontsize={size}:fontcolor={ink}{extra}:x={x}:y={y}"
             for text, x, y in phrases]
    if noise:
        draws.append(f"noise=alls={noise}:allf=u")
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", source, "-vf", ",".join(draws),
                    "-frames:v", "1", path], check=True)



def read_with_camrec(camrec, frames):
    """camrec's text of each frame (one run for all) and its time per frame."""
    start = time.monotonic()
    run = subprocess.run([str(camrec), "text", "--json"] + frames, capture_output=True, text=True)
    seconds = (time.monotonic() - start) / len(frames)
    lines = [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]
    return {line["input"]: line["text"] for line in lines if line.get("type") == "text"}, seconds


def measure(camrec, out, count=4, only=None, say=None, baseline=None):
    """Rows (class, cap height, camrec CER, tesseract CER, camrec s/frame, tesseract s/frame),
    and with `baseline` (another camrec, read right after on the same frames) its CER and
    s/frame at the end of each row."""
    rows = []
    for name, source, ink, extra, noise in STYLES:
        if only and not name.startswith(only):
            continue
        for cap in CAPS:
            size = round(cap / CAP)
            frames, truths = [], []
            for index in range(count):
                first, second = PHRASES[(2 * index) % len(PHRASES)], PHRASES[(2 * index + 1) % len(PHRASES)]
                path = os.path.join(out, f"{name.replace(' ', '-').replace(',', '')}-{cap}-{index}.png")
                # Two phrases, one above the other, at places that move with the index.
                render(path, source, ink, extra, noise, size,
                       [(first, 80 + 40 * index, 150), (second, 160 + 30 * index, 150 + 4 * size)])
                frames.append(path)
                truths.append(first + "\n" + second)
            mine, mine_time = read_with_camrec(camrec, frames)
            start = time.monotonic()
            theirs_text = []
            for frame in frames:  # one run per frame: the CLI's list mode joins the pages' text
                result = subprocess.run(["tesseract", frame, "stdout"], capture_output=True, text=True)
                theirs_text.append(result.stdout)
            theirs_time = (time.monotonic() - start) / count
            total = sum(len(t) for t in truths)
            mine_errors = sum(levenshtein(normal(mine.get(f, "")), t) for f, t in zip(frames, truths))
            theirs_errors = sum(levenshtein(normal(x), t) for x, t in zip(theirs_text, truths))
            row = (name, cap, mine_errors / total, theirs_errors / total, mine_time, theirs_time)
            if baseline:
                base, base_time = read_with_camrec(baseline, frames)
                row += (sum(levenshtein(normal(base.get(f, "")), t) for f, t in zip(frames, truths)) / total, base_time)
            rows.append(row)
            if say:
                say(f"{name:26} {cap:3} px  camrec CER {mine_errors / total:6.3f} {mine_time:5.2f} s/frame   "
                    f"tesseract CER {theirs_errors / total:6.3f} {theirs_time:5.2f} s/frame"
                    + (f"   baseline CER {row[6]:6.3f} {row[7]:5.2f} s/frame" if baseline else ""))
    return rows


def markdown(rows):
    compared = any(len(row) > 6 for row in rows)
    lines = ["| class | cap height | camrec CER | tesseract CER | camrec s/frame | tesseract s/frame |"
             + (" baseline CER | baseline s/frame |" if compared else ""),
             "|---|---|---|---|---|---|" + ("---|---|" if compared else "")]
    for name, cap, mine, theirs, mine_time, theirs_time, *base in rows:
        lines.append(f"| {name} | {cap} px | {mine:.3f} | {theirs:.3f} | {mine_time:.2f} | {theirs_time:.2f} |"
                     + (f" {base[0]:.3f} | {base[1]:.2f} |" if base else ""))
    return "\n".join(lines)


def section(ctx):
    from .common import log
    from .section import SectionResult, SummaryRow, table

    started = time.monotonic()
    result = SectionResult("textocr", "20. Text recognition")
    out = ctx.dir("textocr")
    count = 1 if ctx.settings.quick else 3
    rows = measure(ctx.toolbox.camrec, str(out), count=count, say=log)
    result.method = [__doc__.split("\n\n")[0].replace("\n", " ").split(": ", 1)[1] + f" {count} frame(s) a class and size."]
    result.body = [table(["class", "cap height", "camrec CER", "tesseract CER", "camrec s/frame", "tesseract s/frame"],
                         [[name, f"{cap} px", f"{mine:.3f}", f"{theirs:.3f}", f"{mt:.2f}", f"{tt:.2f}"]
                          for name, cap, mine, theirs, mt, tt in rows])]
    for name, *_ in STYLES:
        of = [row for row in rows if row[0] == name]
        if not of:
            continue
        worse = [f"{cap} px" for _, cap, mine, theirs, _, _ in of if mine > theirs + 1e-9]
        mine_mean = sum(row[2] for row in of) / len(of)
        theirs_mean = sum(row[3] for row in of) / len(of)
        result.summary.append(SummaryRow(
            figure=f"text CER, {name} (mean of 8-48 px; tesseract CLI's in brackets)",
            camrec=f"{mine_mean:.3f} ({theirs_mean:.3f})", goal="at most the CLI's at every size",
            met=not worse))
        if worse:
            result.gaps.append(f"{name}: camrec's CER is above the command line's at {', '.join(worse)}")
    slower = [row for row in rows if row[4] > row[5]]
    result.summary.append(SummaryRow(
        figure="text: time per frame (camrec's model loaded once; tesseract CLI's in brackets)",
        camrec=f"{min(r[4] for r in rows):.2f}-{max(r[4] for r in rows):.2f} s "
               f"({min(r[5] for r in rows):.2f}-{max(r[5] for r in rows):.2f} s)",
        goal="at most the CLI's", met=not slower))
    result.seconds = time.monotonic() - started
    return result
