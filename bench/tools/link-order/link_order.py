#!/usr/bin/env python3
"""Makes packaging/link-order.txt: the functions a recording runs, in the order they first run,
for lld's --symbol-ordering-file (Package.swift), so that they sit together at the start of
camrec's .text and the kernel's 64-KB fault-around maps few cold pages with them (issue 37).

  bench/tools/link-order/link_order.py [--rounds 4] [--seconds 20] [--size 640x480]

Needs the release build (swift build -c release --product camrec and --product VirtualCamera,
with function sections: a release folder built before Package.swift asked for them keeps its old
objects, since swiftc does not rewrite an object whose IR is unchanged; remove the release
*.swift.o once). Each round relinks camrec (the link command of .build/release.yaml, with a map)
in the order found so far, records from the emulated camera with fntrace.so preloaded, and adds
the functions sampled; then every other function sharing a page touched with them is added after
them (sampling misses a few; on a shared page they cost nothing more). Big input sections that
are not split into functions (the static Swift runtime's own .text, 1.6 MB) are left in place:
ordering cannot move parts of them."""
import argparse, bisect, json, os, re, shutil, subprocess, sys, tempfile, time
from pathlib import Path

HERE = Path(__file__).resolve().parent
PACKAGE = HERE.parent.parent.parent
MAX_SECTION = 70_000   # input sections larger than this are whole-file .text: not moved


def link_args(build: Path) -> list[str]:
    folder = next(p for p in [build, *build.parents] if (p / "release.yaml").exists())
    yaml = (folder / "release.yaml").read_text()
    i = yaml.index('"C.camrec-x86_64-unknown-linux-gnu-release.exe":')
    return json.loads(re.search(r"\n    args: (\[.*?\])\n", yaml[i:]).group(1))


def text_sections(map_file: Path):
    """Input sections of .text from an lld map (--no-demangle): [start, size, first symbol]."""
    secs, inside = [], False
    for line in map_file.open():
        m = re.match(r"^\s*([0-9a-f]+)\s+([0-9a-f]+)\s+([0-9a-f]+)\s+(\d+)\s(\s*)(.*)$", line)
        if not m:
            continue
        indent, name = len(m[5]), m[6].strip()
        if indent == 0:
            inside = name == ".text"
        elif inside and indent == 8:
            secs.append([int(m[1], 16), int(m[3], 16), None])
        elif inside and indent == 16 and secs and secs[-1][2] is None:
            secs[-1][2] = name
    return secs


def text_delta(binary: Path) -> int:
    for line in subprocess.run(["readelf", "-lW", binary], capture_output=True, text=True).stdout.splitlines():
        f = line.split()
        if f and f[0] == "LOAD" and "E" in f[6:-1]:
            return int(f[2], 16) - int(f[1], 16)
    raise SystemExit("link-order: no executable segment")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--size", default="640x480")   # as bench section 11 records (with --json)
    ap.add_argument("--output", type=Path, default=PACKAGE / "packaging" / "link-order.txt")
    args = ap.parse_args()
    bin_dir = Path(subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=PACKAGE,
                                  capture_output=True, text=True, check=True).stdout.strip().splitlines()[-1])
    vcam = bin_dir / "libVirtualCamera.so"
    work = Path(tempfile.mkdtemp(prefix="link-order-"))
    tracer = work / "fntrace.so"
    # The GStreamer registry up to date before tracing (see GST_REGISTRY_UPDATE below).
    subprocess.run(["gst-inspect-1.0", "fakesrc"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", tracer, HERE / "fntrace.c", "-lpthread", "-ldl"], check=True)
    base_args = link_args(bin_dir)
    hot: list[str] = []           # sampled, in the order first seen
    seen: set[str] = set()
    neighbours: list[str] = []   # functions sharing a touched page with sampled ones
    for r in range(args.rounds + 1):
        order = work / f"order-{r}.txt"
        order.write_text("".join(s + "\n" for s in hot + [n for n in neighbours if n not in seen]))
        binary, map_file = work / f"camrec-{r}", work / f"camrec-{r}.map"
        a = list(base_args)
        a[a.index("-o") + 1] = str(binary)
        a += ["-Xlinker", f"-Map={map_file}", "-Xlinker", "--no-demangle", "-Xlinker", "--no-export-dynamic",
              "-Xlinker", f"--symbol-ordering-file={order}", "-Xlinker", "--no-warn-symbol-ordering"]
        subprocess.run(a, check=True)
        if r == args.rounds:
            break
        trace = work / f"trace-{r}.txt"
        device = "/dev/video59"
        env = dict(os.environ, LD_PRELOAD=f"{vcam}:{tracer}", CAMREC_VCAM=f"{device},formats=yuyv,sizes={args.size}@30",
                   TEXTTRACE_OUT=str(trace), SWIFT_BACKTRACE="enable=no", FNTRACE_US="100", NO_COLOR="1",
                   # A registry update loads plugins under GStreamer's own SIGSEGV handler, which
                   # then takes the tracer's faults for a plugin's crash.
                   GST_REGISTRY_UPDATE="no")
        env.pop("GST_V4L2_USE_LIBV4L2", None)
        for attempt in range(3):
            # The tracer's page juggling now and then crashes camrec (a fault it cannot tell from
            # its own): that round is recorded again.
            done = subprocess.run([binary, "--device", device, "--size", args.size, "--fps", "30", "--camera-buffers", "4",
                                   "--max-duration", f"{args.seconds:g}", "--json", "--force", work / "out.mp4"], env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if done.returncode == 0:
                break
            for partial in work.glob("out.partial*"):
                partial.unlink()
        else:
            raise SystemExit(f"link-order: the traced recording failed ({done.returncode}) three times")
        secs = text_sections(map_file)
        starts = [s[0] for s in secs]
        delta = text_delta(binary)
        pages = set()
        for line in trace.open():
            addr = int(line) + delta
            pages.add(addr & ~4095)
            i = bisect.bisect_right(starts, addr) - 1
            if i >= 0 and secs[i][0] <= addr < secs[i][0] + secs[i][1] and secs[i][2] and secs[i][1] <= MAX_SECTION:
                if secs[i][2] not in seen:
                    seen.add(secs[i][2])
                    hot.append(secs[i][2])
        neighbours = []   # of this round's layout only: the first rounds' pages hold many cold ones
        for page in sorted(pages):
            i = max(bisect.bisect_right(starts, page) - 1, 0)
            while i < len(secs) and secs[i][0] < page + 4096:
                start, size, sym = secs[i]
                if size and sym and size <= MAX_SECTION and start + size > page and sym not in neighbours:
                    neighbours.append(sym)
                i += 1
        print(f"link-order: round {r + 1}: {len(hot)} functions sampled, {len(pages)} pages touched", file=sys.stderr)
    final = [s for s in hot] + [n for n in neighbours if n not in seen]
    args.output.write_text("".join(s + "\n" for s in final))
    print(f"link-order: {len(final)} names ({len(hot)} sampled) to {args.output}", file=sys.stderr)
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
