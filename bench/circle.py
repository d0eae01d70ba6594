"""Job D (issue 25), the circle avatar set: what bench.py verifies and tabulates for it.

Every tool's outputs are checked against numbers we did not write: the circle's coverage by the
formula of docs/geometry.md, `clamp(r - |p - c| + 0.5, 0, 1)` at pixel centres p (r = size / 2,
c the output's centre), computed here in numpy; the picture against pyvips' own centred thumbnail.
"""
import glob
import os
import statistics

SIZE = {"Da": 256, "Db": 96, "Dw": 96, "Ds": 48}
TITLE = {
    "Da": "Job D(a): the avatar set from the 56 phone photos: circle 256 px, transparent PNG + JPEG on white",
    "Db": "Job D(b): the avatar set from job C's 1,000 web-size photos: circle 96 px, transparent PNG + JPEG on white",
    "Dw": "Job D(b), WebP: circle 96 px as WebP q80 (alpha), 1,000 web-size photos",
    "Ds": "Job Ds: 2,000 small photos (120 px long side) to a 48 px circle PNG + JPEG, one worker / one process",
}
LABEL = {
    "cj": "**cropjob** `run`", "pil": "Pillow (fit + antialiased ellipse)", "pyv": "pyvips (thumbnail + SVG circle)",
    "imh": "ImageMagick (`-draw circle`, CopyOpacity), xargs -P2",
}


def coverage(size):
    """The exact coverage of each pixel (docs/geometry.md) and its distance from the centre."""
    import numpy as np
    yy, xx = np.mgrid[0:size, 0:size] + 0.5
    d = np.hypot(xx - size / 2, yy - size / 2)
    return np.clip(size / 2 - d + 0.5, 0, 1), d


def pixels(pyvips, path):
    import numpy as np
    im = pyvips.Image.new_from_file(path)
    if im.bands < 3:
        im = im.colourspace("srgb")
    return np.ndarray(buffer=im.write_to_memory(), dtype=np.uint8, shape=(im.height, im.width, im.bands)), im


def verify(job, tools, W, sources):
    """Per tool and output: exact size; for circles, alpha against the exact coverage (every pixel
    2 px or more inside the circle >= 250, 2 px or more outside <= 5, the sum of alpha within 1 % of
    the circle's area; photos with alpha of their own: outside only) and the JPEG white outside and
    within 16 levels of the PNG inside (q85 with 4:2:0 chroma on a 48 px crop of fine detail
    differs by up to 10); the picture upright and centred (8x8 block means inside the circle
    within 10 grey levels of pyvips' centred thumbnail)."""
    import numpy as np
    import pyvips
    size = SIZE[job]
    exts = ["webp"] if job == "Dw" else ["png", "jpg"]
    cov, d = coverage(size)
    r = size / 2
    inner, outer, ring = d <= r - 2, d >= r + 2, (d > r - 2) & (d < r + 2)
    area = float(cov.sum())
    block = size // 8
    yb, xb = np.mgrid[0:8, 0:8] * block + block / 2
    inner_blocks = np.hypot(xb - r, yb - r) <= r - block
    bad = {t: [] for t in tools}
    ring_diff = {t: [] for t in tools}
    area_err = {t: [] for t in tools}
    for src in sources:
        stem = os.path.splitext(os.path.basename(src))[0]
        ref_im = pyvips.Image.thumbnail(src, size, height=size, crop="centre")
        opaque = not ref_im.hasalpha()
        if ref_im.hasalpha():
            ref_im = ref_im.flatten(background=255)
        if ref_im.bands < 3:
            ref_im = ref_im.colourspace("srgb")
        ref = np.ndarray(buffer=ref_im.write_to_memory(), dtype=np.uint8, shape=(size, size, 3)).astype(float)
        for tool in tools:
            circle = not tool.endswith("-sq")
            got = {}
            for ext in exts:
                f = os.path.join(W, "out", tool, f"{stem}_{size}.{ext}")
                if not os.path.exists(f):
                    bad[tool].append(f"missing {stem}_{size}.{ext}")
                    continue
                a, im = pixels(pyvips, f)
                if a.shape[:2] != (size, size):
                    bad[tool].append(f"size {stem}.{ext} {a.shape[1]}x{a.shape[0]}")
                    continue
                got[ext] = a
                if ext != "jpg" and circle:
                    if a.shape[2] != 4:
                        bad[tool].append(f"no alpha in {stem}.{ext}")
                        continue
                    alpha = a[..., 3].astype(float)
                    if alpha[outer].max() > 5:
                        bad[tool].append(f"{stem}.{ext}: alpha {alpha[outer].max():.0f} outside the circle")
                    if opaque:
                        if alpha[inner].min() < 250:
                            bad[tool].append(f"{stem}.{ext}: alpha {alpha[inner].min():.0f} inside the circle")
                        err = abs(alpha.sum() / 255 - area) / area
                        area_err[tool].append(err)
                        ring_diff[tool].append(float(abs(alpha[ring] - 255 * cov[ring]).mean()))
                        if err > 0.01:
                            bad[tool].append(f"{stem}.{ext}: alpha covers {100 * err:.1f} % more or less than the circle")
                if ext == "jpg" and circle and float(a[..., :3][outer].mean()) < 245:
                    bad[tool].append(f"{stem}.jpg: not white outside the circle")
            if "png" in got and "jpg" in got and opaque:
                diff = abs(got["png"][..., :3][inner].astype(float) - got["jpg"][..., :3][inner]).mean()
                if diff > 16:
                    bad[tool].append(f"{stem}: JPEG differs from the PNG inside the circle by {diff:.1f}")
            for ext, a in got.items():
                rgb = a[..., :3].astype(float)
                if a.shape[2] == 4:   # as on white
                    al = a[..., 3:4] / 255.0
                    rgb = rgb * al + 255 * (1 - al)
                small = [x[:8 * block, :8 * block].reshape(8, block, 8, block, 3).mean(axis=(1, 3)) for x in (rgb, ref)]
                d8 = float(abs(small[0] - small[1])[inner_blocks].mean())
                if d8 > 10:
                    bad[tool].append(f"{stem}.{ext} is not the upright centred picture (8x8 mean |d| {d8:.1f})")
    report, ok_all = {}, True
    for tool in tools:
        n = sum(len(glob.glob(os.path.join(W, "out", tool, "*." + e))) for e in exts)
        if n != len(sources) * len(exts):
            bad[tool].append(f"{n} files, want {len(sources) * len(exts)}")
        cov_s = (f"alpha area error max {100 * max(area_err[tool]):.2f} %, edge mean |alpha - 255 coverage| "
                 f"{statistics.mean(ring_diff[tool]):.1f}") if area_err[tool] else ""
        report[tool] = {"ok": not bad[tool], "problems": bad[tool][:10], "files": n, "coverage": cov_s}
        print(f"{'OK ' if not bad[tool] else 'BAD'} {tool:16s} {n:5d} files  {cov_s}  {'; '.join(bad[tool][:3])}",
              flush=True)
        ok_all &= not bad[tool]
    return report, ok_all


def table(name, d, verify, n_img, med):
    """Rows for job `name`: each tool's times, its time over cropjob's circle run, and each tool's
    circle over its own square twin (paired medians of the same rounds)."""
    recs = d["records"]
    rounds_ = sorted(set(r["round"] for r in recs))
    by = {(r["tool"], r["round"]): r for r in recs}
    tools = list(dict.fromkeys(r["tool"] for r in recs))
    cj = "cj-" + name

    def paired(a, b, key="wall"):
        return med([by[(a, k)][key] / by[(b, k)][key] for k in rounds_ if (a, k) in by and (b, k) in by])

    out = ["", f"### {TITLE.get(name, name)}", "",
           f"{d['meta']['date']}, medians of {d['meta']['runs']} alternating rounds after {d['meta']['warmup']} "
           f"warm-up; load average at the runs' starts {min(float(r['load']) for r in recs):.2f}–"
           f"{max(float(r['load']) for r in recs):.2f}" + (f"; {d['meta']['cropjob']}" if d["meta"].get("cropjob") else "")
           + ".", "",
           "| tool | shape | median wall s | median CPU s | CPU ms/photo | peak RSS MiB | time ÷ cropjob circle's | "
           "circle ÷ own square (wall; CPU) | outputs checked | coverage against the formula |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    for t in tools:
        rs = [r for r in recs if r["tool"] == t]
        sq = t.endswith("-sq")
        kind = t.split("-")[1] if not t.startswith("cj-") else "cj"
        v = verify.get(t)
        vs = "–" if v is None else ("OK" if v["ok"] else "**FAILED**: " + "; ".join(v["problems"][:2]))
        twin = "" if sq or (t + "-sq") not in tools else f"{paired(t, t + '-sq'):.2f}; {paired(t, t + '-sq', 'cpu'):.2f}"
        cpu = med([r["cpu"] for r in rs])
        out.append(f"| `{t}` {LABEL.get(kind, '')} | {'square' if sq else 'circle'} | {med([r['wall'] for r in rs]):.2f} | "
                   f"{cpu:.2f} | {1000 * cpu / n_img:.2f} | {max(r['rss_kib'] for r in rs) / 1024:.0f} | "
                   f"{'1 (reference)' if t == cj else '%.2f' % paired(t, cj)} | {twin or '–'} | {vs} | "
                   f"{(v or {}).get('coverage', '') or '–'} |")
    peers = [t for t in tools if not t.startswith("cj-") and not t.endswith("-sq")]
    if peers:
        fastest = min(peers, key=lambda t: paired(t, cj))
        out += ["", f"Fastest peer (circle): `{fastest}`; cropjob's time is **{1 / paired(fastest, cj):.2f} x** its "
                    f"time (paired median); cropjob circle ÷ square **{paired(cj, cj + '-sq'):.2f} x** (wall), "
                    f"{paired(cj, cj + '-sq', 'cpu'):.2f} x (CPU)."]
    return out
