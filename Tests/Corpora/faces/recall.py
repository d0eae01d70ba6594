#!/usr/bin/python3
"""recall.py: the face detector's recall and false boxes, from a run's manifest.

    recall.py [--truth truth.json] [--ignore ignore.json] [--job NAME] [--min-recall PCT]
              [--max-false N] [--list] RUN

RUN is an output root of `cropjob run` with `focus: faces` (or its cropjob-manifest.json). The
manifest records, per output, the detector's boxes (`geometry.found.boxes`, origin `detector
...`, oriented source pixels); one output per source is read (job NAME, default the first job
seen). A truth face is FOUND when a box's centre lies inside it and the box's width is 0.5-2x
the face's; each box finds at most one face (the nearest centre first). A box that finds no
face is FALSE. A box the placement dropped (`kept: false` with a reason) is still counted: this
scores the detector, not the placement. With --ignore (file name -> list of regions, the form of
truth.json), a box that finds no face but whose centre lies in a region is IGNORED, neither
found nor false: faces too small, too dim or turned away to hold a detector to, and faces in
posters and pictures on a wall (Tests/Corpora/faces-real/README.md). Prints found/faces (%), false boxes, and per photo the
misses and false boxes with --list; exits 1 below --min-recall or above --max-false.
"""

import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def match(truth, boxes):
    """(found, false): how many truth faces a box finds, how many boxes find none."""
    pairs = []
    for i, t in enumerate(truth):
        tcx, tcy = t["x"] + t["width"] / 2, t["y"] + t["height"] / 2
        for j, b in enumerate(boxes):
            cx, cy = b["x"] + b["width"] / 2, b["y"] + b["height"] / 2
            inside = t["x"] <= cx <= t["x"] + t["width"] and t["y"] <= cy <= t["y"] + t["height"]
            ratio = b["width"] / t["width"] if t["width"] else 0
            if inside and 0.5 <= ratio <= 2:
                pairs.append(((cx - tcx) ** 2 + (cy - tcy) ** 2, i, j))
    used_t, used_b = set(), set()
    for _, i, j in sorted(pairs):
        if i not in used_t and j not in used_b:
            used_t.add(i)
            used_b.add(j)
    return len(used_t), len(boxes) - len(used_b), [i for i in range(len(truth)) if i not in used_t], used_b


def ignored(box, regions):
    """Whether the box's centre lies in one of the regions."""
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    return any(r["x"] <= cx <= r["x"] + r["width"] and r["y"] <= cy <= r["y"] + r["height"] for r in regions)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("run")
    ap.add_argument("--truth", default=os.path.join(HERE, "truth.json"))
    ap.add_argument("--ignore", default=None, help="regions whose unmatched boxes are not false")
    ap.add_argument("--job", default=None)
    ap.add_argument("--min-recall", type=float, default=None, metavar="PCT")
    ap.add_argument("--max-false", type=int, default=None, metavar="N")
    ap.add_argument("--list", action="store_true")
    args = ap.parse_args()
    path = os.path.join(args.run, "cropjob-manifest.json") if os.path.isdir(args.run) else args.run
    with open(path) as f:
        manifest = json.load(f)
    with open(args.truth) as f:
        truth = json.load(f)
    regions = {}
    if args.ignore:
        with open(args.ignore) as f:
            regions = json.load(f)
    seen = {}
    for output in manifest["outputs"]:
        job = output.get("job")
        if args.job is None:
            args.job = job
        if job != args.job:
            continue
        name = os.path.basename(output["source"]["path"])
        found = (output.get("geometry") or {}).get("found") or {}
        boxes = [b["rect"] for b in found.get("boxes") or [] if b["origin"].startswith("detector")]
        seen[name] = boxes
    faces = found_total = false_total = ignored_total = 0
    for name in sorted(truth):
        if name not in seen:
            sys.exit(f"recall.py: no output of job {args.job} for {name} in {path}")
        found, false, missed, used = match(truth[name], seen[name])
        spared = sum(
            1 for j, b in enumerate(seen[name]) if j not in used and ignored(b, regions.get(name, []))
        )
        false -= spared
        ignored_total += spared
        faces += len(truth[name])
        found_total += found
        false_total += false
        if args.list and (missed or false):
            print(f"  {name}: missed {[truth[name][i] for i in missed]}, {false} false box(es)")
    pct = 100.0 * found_total / faces if faces else 0.0
    extra = f", {ignored_total} in ignored regions" if args.ignore else ""
    print(f"{len(truth)} photos: found {found_total} of {faces} faces ({pct:.1f} %), {false_total} false box(es){extra}")
    if args.min_recall is not None and pct < args.min_recall:
        sys.exit(f"FAIL: recall {pct:.1f} % below {args.min_recall} %")
    if args.max_false is not None and false_total > args.max_false:
        sys.exit(f"FAIL: {false_total} false boxes, more than {args.max_false}")


if __name__ == "__main__":
    main()
