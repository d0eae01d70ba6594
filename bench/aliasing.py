#!/usr/bin/python3
"""Aliasing of downscales between ratio 1 and 2, on a zone plate (bench/README.md, "Aliasing").

  aliasing.py table [--cropjob [LABEL=]BIN]... [--ratios 1.1,1.3,...]
                                                              the table of bench/README.md
  aliasing.py zoneplate OUT.png                               write the test pattern
  aliasing.py measure SOURCE.png OUTPUT.png                   JSON: the metrics of OUTPUT and of
                                                              libvips' reduce (lanczos3, cubic)
                                                              at the same size

The pattern: a 1024x1024 grey zone plate, 128 + 100 cos(pi r^2 / (0.9 N)), whose local frequency
grows linearly with the distance r from the centre, r / (0.9 N) cycles per pixel: 0.5 (the
Nyquist limit) at r = 0.45 N; tapered to flat grey between r = 0.42 N and 0.45 N. Every tool
downscales the whole pattern to n x n (ratio R = N / n, pixel centres mapped exactly, which
is what each of them does for a whole-image resize).

The ideal output is the pattern low-passed by the ideal separable filter of the output's
Nyquist limit (every DFT coefficient with |k| >= n / 2 dropped) and evaluated exactly at the
output pixel centres (a matrix DFT). A zone plate puts each frequency in its own place, so
the error to that ideal splits by position:
  alias    RMS error (grey levels) where the pattern's frequency is beyond the output's
           Nyquist limit (max(|fx|, |fy|) R > 0.5, in output cycles per pixel): the ideal is
           flat there, whatever the output shows is aliasing;
  pass     RMS error where max(|fx|, |fy|) R < 0.35: lost or distorted detail that the output
           can carry (blur, and the moire of a kernel that is not shift invariant);
both inside r < 0.42 N. Run with Debian's /usr/bin/python3 (python3-numpy, python3-pil) and
the `vips` command (libvips-tools).
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image

N = 1024
MEAN, AMP = 128.0, 100.0
R_FULL, R_ZERO, F_SPAN = 0.42 * N, 0.45 * N, 0.9 * N


def zoneplate():
    c = np.arange(N) + 0.5 - N / 2
    r = np.hypot(c[None, :], c[:, None])
    taper = np.clip((R_ZERO - r) / (R_ZERO - R_FULL), 0, 1)
    taper = 0.5 - 0.5 * np.cos(np.pi * taper)
    return MEAN + AMP * taper * np.cos(np.pi * r * r / F_SPAN)


def ideal(src, n):
    """src low-passed at the n-pixel output's Nyquist limit, evaluated at its pixel centres."""
    coef = np.fft.fft2(src)
    k = np.fft.fftfreq(N, 1.0 / N)
    keep = np.abs(k) < n / 2
    kk = k[keep]
    u = (np.arange(n) + 0.5) * N / n - 0.5           # output centres, source index coordinates
    e = np.exp(2j * np.pi * np.outer(u, kk) / N) / N
    return np.real(e @ coef[np.ix_(keep, keep)] @ e.T)


def regions(n):
    ratio = N / n
    c = (np.arange(n) + 0.5) * N / n - N / 2          # output centres, source px from the centre
    x, y = c[None, :], c[:, None]
    f = np.maximum(np.abs(x), np.abs(y)) / F_SPAN * ratio   # output cycles per pixel
    inside = np.hypot(x, y) < R_FULL
    return inside & (f > 0.5), inside & (f < 0.35)


def metrics(out, src):
    n = out.shape[0]
    want = ideal(src, n)
    alias, passband = regions(n)
    err = out.astype(np.float64) - want
    return {"alias": float(np.sqrt(np.mean(err[alias] ** 2))) if alias.any() else 0.0,
            "pass": float(np.sqrt(np.mean(err[passband] ** 2)))}


def read(path):
    return np.asarray(Image.open(path).convert("L"), dtype=np.float64)


def vips_reduce(src_png, n, kernel, tmp):
    out = os.path.join(tmp, f"vips-{kernel}-{n}.png")
    # vips_reduce: output size round(N / shrink); centres mapped exactly (centre convention).
    subprocess.run(["vips", "reduce", src_png, out, str(N / n), str(N / n), "--kernel", kernel],
                   check=True, capture_output=True)
    return read(out)


def catmull_rom(x):
    x = np.abs(x)
    return np.where(x < 1, 1.5 * x ** 3 - 2.5 * x ** 2 + 1,
                    np.where(x < 2, -0.5 * x ** 3 + 2.5 * x ** 2 - 4 * x + 2, 0.0))


def lanczos(a):
    return lambda x: np.where(np.abs(x) < a, np.sinc(x) * np.sinc(x / a), 0.0)


def kernel_model(src, n, kernel, widen):
    """Separable resample at the preimages of the output centres, edge pixels repeated, with
    `kernel` at its own size (point-sampled, widen=False) or widened by the ratio."""
    ratio = N / n
    width = ratio if widen else 1.0
    u = (np.arange(n) + 0.5) * ratio - 0.5
    j = np.arange(N)
    w = kernel((j[None, :] - u[:, None]) / width)
    w /= w.sum(axis=1, keepdims=True)
    return np.clip(np.floor(w @ src @ w.T + 0.5), 0, 255)


def run_cropjob(binary, src_png, sizes, tmp):
    job = os.path.join(tmp, "zoneplate.yaml")
    with open(job, "w") as f:
        f.write("version: 1\noutput: out\njobs:\n  zoneplate:\n"
                f"    sources: [\"{src_png}\"]\n"
                f"    guide: {{shape: square, size: {N}}}\n"
                "    place: {fit: cover}\n"
                f"    outputs: [{{path: \"{{stem}}_{{width}}.png\", widths: {list(sizes)}}}]\n")
    subprocess.run([binary, "run", job, "-q", "--jobs", "1"], check=True, cwd=tmp, stdout=subprocess.DEVNULL)
    stem = os.path.splitext(os.path.basename(src_png))[0]
    return {n: read(os.path.join(tmp, "out", f"{stem}_{n}.png")) for n in sizes}


def measure(src_png, out_png):
    src = read(src_png)
    out = read(out_png)
    n = out.shape[0]
    with tempfile.TemporaryDirectory() as tmp:
        result = {"ratio": N / n, "output": metrics(out, src),
                  "vips_lanczos3": metrics(vips_reduce(src_png, n, "lanczos3", tmp), src),
                  "vips_cubic": metrics(vips_reduce(src_png, n, "cubic", tmp), src)}
    print(json.dumps(result))


def table(binaries, ratios):
    with tempfile.TemporaryDirectory() as tmp:
        src_png = os.path.join(tmp, "zoneplate.png")
        Image.fromarray(np.clip(np.floor(zoneplate() + 0.5), 0, 255).astype(np.uint8), "L").save(src_png)
        src = read(src_png)
        sizes = [round(N / r) for r in ratios]
        rows = {
            "Catmull-Rom, 4 taps (model)": {n: kernel_model(src, n, catmull_rom, False) for n in sizes},
            "Catmull-Rom widened by the ratio (model)": {n: kernel_model(src, n, catmull_rom, True) for n in sizes},
            "Lanczos2 widened by the ratio (model)": {n: kernel_model(src, n, lanczos(2), True) for n in sizes},
            "Lanczos3 widened by the ratio (model)": {n: kernel_model(src, n, lanczos(3), True) for n in sizes},
            "libvips reduce, lanczos3": {n: vips_reduce(src_png, n, "lanczos3", tmp) for n in sizes},
            "libvips reduce, cubic": {n: vips_reduce(src_png, n, "cubic", tmp) for n in sizes},
            "Pillow resize, LANCZOS": {n: np.asarray(Image.open(src_png).resize((n, n), Image.LANCZOS), np.float64)
                                      for n in sizes},
        }
        cropjobs = {}
        for i, spec in enumerate(binaries):
            label, _, path = spec.rpartition("=")
            out = os.path.join(tmp, f"cropjob-{i}")
            os.makedirs(out)
            cropjobs["**cropjob** " + (label or os.path.basename(path))] = run_cropjob(path, src_png, sizes, out)
        rows = {**cropjobs, **rows}
        print("| zone plate 1024 → n (ratio) | " + " | ".join(f"{n} ({N / n:.2f})" for n in sizes) + " |")
        print("|---|" + "---|" * len(sizes))
        for name, outs in rows.items():
            ms = [metrics(outs[n], src) for n in sizes]
            print(f"| {name} | " + " | ".join(f"{m['alias']:.1f} / {m['pass']:.1f}" for m in ms) + " |")
        print("\nalias / pass: RMS error to the ideal low-pass, grey levels (pattern amplitude 100).")


def main(argv):
    if len(argv) >= 2 and argv[1] == "zoneplate":
        Image.fromarray(np.clip(np.floor(zoneplate() + 0.5), 0, 255).astype(np.uint8), "L").save(argv[2])
    elif len(argv) >= 2 and argv[1] == "measure":
        measure(argv[2], argv[3])
    elif len(argv) >= 2 and argv[1] == "table":
        binaries = [argv[i + 1] for i, a in enumerate(argv) if a == "--cropjob"]
        ratios = [float(r) for r in argv[argv.index("--ratios") + 1].split(",")] if "--ratios" in argv \
            else [1.1, 1.3, 1.5, 1.7, 1.9]
        table(binaries, ratios)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
