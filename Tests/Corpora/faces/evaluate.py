#!/usr/bin/python3
"""evaluate.py: score cropjob outputs of the face corpus against truth.json.

    evaluate.py [--padding P] [--tolerance T] [--list] [--json] [--min-inside PCT]
                RUN [RUN ...]

Each RUN is an output root of `cropjob run` on one of the job files here (or the path of its
cropjob-manifest.json). For each output the manifest's geometry (centre, scale, angle: oriented
source pixels) gives the output's footprint in the source: the output rectangle mapped back,
`width/scale x height/scale` about the centre, turned by -angle. Each face box of truth.json is
grown by P (a fraction of its width left and right, of its height above and below, as
face_padding means) and clipped to the photo. An output

- FITS when all the padded boxes together would fit in the footprint's size (their extent along
  the footprint's axes is no larger than it), so some placement at that zoom keeps every face;
- keeps every face INSIDE when every padded box lies in the footprint (within T source px).

Printed per job (rows) and run (columns): outputs, outputs with a face, fits, inside among those
that fit (count and %), cut among those that fit, and for the outputs that do not fit, how many
still show the largest face whole (unpadded). With two or more runs, the outputs that the first
run keeps whole and another cuts (and the reverse) are counted. --min-inside PCT exits 1 when
the first run's share (every job) is below PCT. Reads JSON only (no image is opened).
"""

import argparse
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def load_manifest(path):
    if os.path.isdir(path):
        path = os.path.join(path, "cropjob-manifest.json")
    with open(path) as f:
        return path, json.load(f)


def padded(box, padding, size):
    """The face box grown by `padding` of its size on each side, clipped to the photo."""
    x, y, w, h = box["x"], box["y"], box["width"], box["height"]
    x0, y0 = max(0.0, x - padding * w), max(0.0, y - padding * h)
    x1, y1 = min(float(size[0]), x + w + padding * w), min(float(size[1]), y + h + padding * h)
    return (x0, y0, x1, y1)


class Footprint:
    """The output rectangle mapped back into oriented source pixels."""

    def __init__(self, output):
        g = output["geometry"]
        self.cx, self.cy = g["centre"]["x"], g["centre"]["y"]
        self.half_w = output["width"] / g["scale"] / 2
        self.half_h = output["height"] / g["scale"] / 2
        theta = math.radians(g.get("angle", 0) or 0)
        self.cos, self.sin = math.cos(theta), math.sin(theta)

    def local(self, px, py):
        """A source point in the footprint's frame (origin at its centre, output axes): the
        forward map turns the photo clockwise by the angle, R = [cos -sin; sin cos], y down."""
        dx, dy = px - self.cx, py - self.cy
        return (self.cos * dx - self.sin * dy, self.sin * dx + self.cos * dy)

    def corners(self, rect):
        x0, y0, x1, y1 = rect
        return [self.local(x, y) for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]

    def contains(self, rect, tolerance):
        return all(
            abs(u) <= self.half_w + tolerance and abs(v) <= self.half_h + tolerance for u, v in self.corners(rect)
        )

    def fits(self, rects, tolerance):
        points = [p for r in rects for p in self.corners(r)]
        us, vs = [p[0] for p in points], [p[1] for p in points]
        return max(us) - min(us) <= 2 * self.half_w + tolerance and max(vs) - min(vs) <= 2 * self.half_h + tolerance


def judge(output, boxes, size, padding, tolerance):
    """(fits, inside, largest face whole, inside unpadded) for one output with a face."""
    foot = Footprint(output)
    rects = [padded(b, padding, size) for b in boxes]
    fits = foot.fits(rects, tolerance)
    inside = all(foot.contains(r, tolerance) for r in rects)
    largest = max(boxes, key=lambda b: (b["width"] * b["height"], -b["y"], -b["x"]))
    whole = foot.contains(padded(largest, 0.0, size), tolerance)
    bare = all(foot.contains(padded(b, 0.0, size), tolerance) for b in boxes)
    return fits, inside, whole, bare


def evaluate(manifest, truth, layout, padding, tolerance):
    """job -> source name -> verdict (None for an image without a face)."""
    results = {}
    unknown = []
    for output in manifest["outputs"]:
        name = os.path.basename(output["source"]["path"])
        if name not in truth:
            unknown.append(name)
            continue
        boxes = truth[name]
        size = layout[name]["displayed"]
        verdict = judge(output, boxes, size, padding, tolerance) if boxes else None
        results.setdefault(output["job"], {})[name] = verdict
    return results, unknown


def summary(verdicts):
    faced = {n: v for n, v in verdicts.items() if v is not None}
    fit = [n for n, v in faced.items() if v[0]]
    inside = [n for n in fit if faced[n][1]]
    nofit = [n for n, v in faced.items() if not v[0]]
    return {
        "outputs": len(verdicts),
        "with_faces": len(faced),
        "fit": len(fit),
        "inside": len(inside),
        "inside_pct": round(100.0 * len(inside) / len(fit), 1) if fit else None,
        "cut": sorted(n for n in fit if not faced[n][1]),
        "inside_unpadded": sum(1 for n in fit if faced[n][3]),
        "no_fit": len(nofit),
        "no_fit_largest_whole": sum(1 for n in nofit if faced[n][2]),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("runs", nargs="+", help="output roots (or cropjob-manifest.json files)")
    ap.add_argument(
        "--padding", type=float, default=0.3, help="face_padding, a fraction of the box on each side (default 0.3, cropjob's)"
    )
    ap.add_argument("--tolerance", type=float, default=0.5, help="source pixels (default 0.5)")
    ap.add_argument("--truth", default=os.path.join(HERE, "truth.json"))
    ap.add_argument("--layout", default=os.path.join(HERE, "layout.json"), help="displayed size per image")
    ap.add_argument("--images", default=os.path.join(HERE, "images"), help="the corpus's images (--check-pixels)")
    ap.add_argument("--list", action="store_true", help="list every output that cuts a face")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--min-inside", type=float, default=None, metavar="PCT")
    ap.add_argument(
        "--min-inside-job",
        action="append",
        default=[],
        metavar="JOB=PCT",
        help="like --min-inside for one job (repeatable; overrides --min-inside for it)",
    )
    ap.add_argument(
        "--check-pixels",
        action="store_true",
        help="also check, with Pillow, that each output shows its footprint (angle 0 only; slower)",
    )
    args = ap.parse_args()

    with open(args.truth) as f:
        truth = json.load(f)
    with open(args.layout) as f:
        layout = json.load(f)

    runs = []
    for path in args.runs:
        mpath, manifest = load_manifest(path)
        results, unknown = evaluate(manifest, truth, layout, args.padding, args.tolerance)
        if not results:
            sys.exit(f"{mpath}: no output of the face corpus (sources must be images listed in {args.truth})")
        if unknown:
            print(f"{mpath}: {len(unknown)} outputs of sources not in truth.json skipped", file=sys.stderr)
        strategies = sorted({o["geometry"].get("smartFocus") or "-" for o in manifest["outputs"]})
        label = "/".join(strategies) if strategies != ["-"] else os.path.basename(os.path.dirname(os.path.abspath(mpath)))
        runs.append({"manifest": mpath, "label": label, "results": results})
        if args.check_pixels:
            check_pixels(mpath, manifest, truth, args.images)

    jobs = sorted({j for r in runs for j in r["results"]})
    report = {"padding": args.padding, "tolerance": args.tolerance, "runs": []}
    for r in runs:
        report["runs"].append(
            {"manifest": r["manifest"], "label": r["label"], "jobs": {j: summary(r["results"].get(j, {})) for j in jobs}}
        )
    if len(runs) > 1:
        report["versus_first"] = compare(runs, jobs)

    if args.json:
        print(json.dumps(report, indent=1, sort_keys=True))
    else:
        print_table(report, runs, jobs, args.list)

    floors = {j: args.min_inside for j in jobs if args.min_inside is not None}
    for spec in args.min_inside_job:
        job, _, pct = spec.partition("=")
        floors[job] = float(pct)
    if floors:
        first = report["runs"][0]["jobs"]
        low = [
            f"{j} ({first[j]['inside_pct'] if j in first else 'missing'} % < {floor} %)"
            for j, floor in sorted(floors.items())
            if j not in first or (first[j]["inside_pct"] is not None and first[j]["inside_pct"] < floor)
        ]
        if low:
            print(f"FAIL: every face inside in too few of the outputs that fit: {', '.join(low)}")
            sys.exit(1)


def check_pixels(mpath, manifest, truth, images=os.path.join(HERE, "images")):
    """Independent check of the footprint: Pillow resamples the footprint rectangle of the
    displayed source to the output's size; it must match the output far better than the same
    rectangle moved by a tenth of its width. Exits 1 on a mismatch, or when an output of the
    corpus could not be checked (turned, or its footprint outside the photo) and so its score
    would rest on the manifest alone. Returns the number of outputs checked."""
    import numpy as np
    from PIL import Image, ImageOps

    root = os.path.dirname(os.path.abspath(mpath))
    bad, checked, skipped = [], 0, []
    for output in manifest["outputs"]:
        name = os.path.basename(output["source"]["path"])
        if name not in truth:
            continue
        if (output["geometry"].get("angle") or 0) != 0:
            skipped.append(f"{output['path']}: turned")
            continue
        foot = Footprint(output)
        box = (foot.cx - foot.half_w, foot.cy - foot.half_h, foot.cx + foot.half_w, foot.cy + foot.half_h)
        size = (output["width"], output["height"])
        with Image.open(os.path.join(images, name)) as im:
            src = ImageOps.exif_transpose(im).convert("L")
        with Image.open(os.path.join(root, output["path"])) as im:
            got = np.asarray(im.convert("L"), dtype=np.float64)

        def mad(b):
            ref = src.resize(size, Image.LANCZOS, box=b)
            return float(np.mean(np.abs(np.asarray(ref, dtype=np.float64) - got)))

        shift = 0.1 * (box[2] - box[0])
        moved = [(box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy) for dx, dy in ((shift, 0), (-shift, 0), (0, shift), (0, -shift))]
        moved = [b for b in moved if b[0] >= 0 and b[1] >= 0 and b[2] <= src.width and b[3] <= src.height]
        if box[0] < -0.5 or box[1] < -0.5 or box[2] > src.width + 0.5 or box[3] > src.height + 0.5:
            skipped.append(f"{output['path']}: footprint outside the photo")  # overflow fill, or zoom < 1
            continue
        box = (max(0.0, box[0]), max(0.0, box[1]), min(src.width, box[2]), min(src.height, box[3]))
        here = mad(box)
        near = min((mad(b) for b in moved), default=float("inf"))
        checked += 1
        if not (here < 6.0 and here < 0.5 * near):
            bad.append(f"{output['path']}: mean |difference| {here:.2f} (moved by a tenth: {near:.2f})")
    print(f"{mpath}: pixels checked for {checked} outputs, {len(bad)} mismatches, {len(skipped)} not checkable", file=sys.stderr)
    if bad or skipped:
        sys.exit("\n".join(bad + [f"not checked: {s}" for s in skipped]))
    return checked


def compare(runs, jobs):
    """For each later run and job: outputs that fit where the first run keeps every face and
    this one cuts one, and the reverse."""
    first = runs[0]["results"]
    out = []
    for r in runs[1:]:
        per_job = {}
        for j in jobs:
            a, b = first.get(j, {}), r["results"].get(j, {})
            common = [n for n in a if a[n] is not None and n in b and b[n] is not None and a[n][0]]
            per_job[j] = {
                "first_whole_other_cuts": sorted(n for n in common if a[n][1] and not b[n][1]),
                "first_cuts_other_whole": sorted(n for n in common if not a[n][1] and b[n][1]),
            }
        out.append({"label": r["label"], "jobs": per_job})
    return out


def print_table(report, runs, jobs, listing):
    labels = [r["label"] for r in report["runs"]]
    print(f"face padding {report['padding']:g}, tolerance {report['tolerance']:g} source px")
    width = max(12, *(len(l) + 2 for l in labels))
    for j in jobs:
        print(f"\njob {j}")
        print(f"  {'':34}" + "".join(f"{l:>{width}}" for l in labels))
        rows = [
            ("outputs", lambda s: str(s["outputs"])),
            ("with faces", lambda s: str(s["with_faces"])),
            ("padded faces fit", lambda s: str(s["fit"])),
            ("  every face inside", lambda s: f"{s['inside']} ({s['inside_pct']:.1f} %)" if s["fit"] else "-"),
            ("  a face cut", lambda s: str(len(s["cut"]))),
            ("  every face inside, unpadded", lambda s: str(s["inside_unpadded"])),
            ("do not fit", lambda s: str(s["no_fit"])),
            ("  largest face whole (unpadded)", lambda s: str(s["no_fit_largest_whole"])),
        ]
        for title, cell in rows:
            print(f"  {title:34}" + "".join(f"{cell(r['jobs'][j]):>{width}}" for r in report["runs"]))
        for v in report.get("versus_first", []):
            c = v["jobs"][j]
            print(
                f"  fit, {labels[0]} keeps every face, {v['label']} cuts one: {len(c['first_whole_other_cuts'])};"
                f" the reverse: {len(c['first_cuts_other_whole'])}"
            )
        if listing:
            for r in report["runs"]:
                for n in r["jobs"][j]["cut"]:
                    print(f"  cut by {r['label']}: {n}")


if __name__ == "__main__":
    main()
