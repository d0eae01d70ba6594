#!/usr/bin/python3
"""Independent oracle for cropjob's animated outputs (`encode.frames: all`; AnimatedFramesTests).

For each case, Pillow reads the animated source and the animated file cropjob wrote, frame by
frame: the frame counts, each frame's delay (ms) and the number of plays (a GIF's NETSCAPE repeat
count N is N + 1 plays, no NETSCAPE block 1 play; a WebP's loop count is its plays; 0 is forever).
Then every frame of the output is checked against placement_oracle.py's expected image of the
SAME source frame (Pillow's decode of that frame, placed and resampled from docs/geometry.md and
docs/resampling.md alone: see that script), written as PNG files into WORK: mean and max absolute
difference per channel (premultiplied RGBA) over the comparable pixels, and, to show that frames
are neither repeated nor out of order, the smallest mean difference from any OTHER source frame's
expected image.

Usage: frames_oracle.py CASES.json WORK
CASES.json: {"cases": [{"name", "source", "guide", "place", "output", "actual"}]} as
placement_oracle.py takes them (the source an animated GIF or WebP).
Prints a JSON list of results on stdout and a table on stderr.
"""

import json
import os
import sys

from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import placement_oracle  # noqa: E402


def frames_of(path):
    """(RGBA frames, delays in ms, plays) of an animated file as Pillow reads it."""
    image = Image.open(path)
    count = getattr(image, "n_frames", 1)
    frames, delays = [], []
    for i in range(count):
        image.seek(i)
        image.load()  # WebP sets the frame's duration when it is loaded
        frames.append(image.convert("RGBA"))
        delays.append(int(image.info.get("duration", 0)))
    loop = image.info.get("loop")
    if image.format == "GIF":
        plays = 1 if loop is None else (0 if loop == 0 else loop + 1)
    else:
        plays = 0 if loop is None else loop
    return frames, delays, plays, image.format


def check(case, work):
    source, source_delays, source_plays, source_format = frames_of(case["source"])
    actual, actual_delays, actual_plays, actual_format = frames_of(case["actual"])
    result = {"name": case["name"], "source_frames": len(source), "actual_frames": len(actual),
              "source_delays": source_delays, "actual_delays": actual_delays, "source_plays": source_plays,
              "actual_plays": actual_plays, "actual_format": actual_format, "frames": []}
    base = os.path.join(work, case["name"])
    for i, frame in enumerate(source):
        frame.save("%s-source-%d.png" % (base, i))
    for i, frame in enumerate(actual):
        frame.save("%s-actual-%d.png" % (base, i))
    for i in range(min(len(source), len(actual))):
        def compared(j):
            sub = dict(case, name="%s-%d-%d" % (case["name"], i, j), source="%s-source-%d.png" % (base, j),
                       actual="%s-actual-%d.png" % (base, i))
            # The expected image follows the output's own format (alpha or not): the name's extension.
            sub["output"] = dict(case["output"], path=case["output"]["path"])
            return placement_oracle.compare(sub, kernel="catmull-rom")
        own = compared(i)
        others = [compared(j)["mean"] for j in range(len(source)) if j != i]
        result["frames"].append({
            "mean": own["mean"], "max": own["max"], "compared": own["compared"],
            "size": own["actual_size"], "expected_size": own["expected_size"],
            "other_frames_min_mean": min((max(m[:3]) for m in others), default=None),
        })
    return result


def main(argv):
    with open(argv[1]) as f:
        cases = json.load(f)["cases"]
    results = [check(case, argv[2]) for case in cases]
    print(json.dumps(results))
    for r in results:
        sys.stderr.write("%-20s frames %d/%d delays %s/%s plays %s/%s\n" % (
            r["name"], r["actual_frames"], r["source_frames"], r["actual_delays"], r["source_delays"],
            r["actual_plays"], r["source_plays"]))
        for i, fr in enumerate(r["frames"]):
            sys.stderr.write("  frame %d: mean RGBA %s max %s (%d px); nearest other frame mean %.1f\n" % (
                i, "/".join("%.2f" % v for v in fr["mean"]), "/".join("%.0f" % v for v in fr["max"]),
                fr["compared"], fr["other_frames_min_mean"] or 0))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
