#!/usr/bin/env python3
"""Circle-avatar peers for bench job D (issue 25): Pillow and pyvips.

usage: peer_circle.py TOOL SHAPE SIZE WORKERS OUTDIR FILE...
  TOOL    pil   = Pillow: draft(2 x SIZE) + exif_transpose, ImageOps.fit (LANCZOS), then putalpha of
                  an antialiased ellipse (drawn at 4x and reduced with LANCZOS, once per process)
                  multiplied into any alpha the photo has; PNG (Pillow's defaults), and the same
                  pasted on white as JPEG q85
          pyv   = pyvips: Image.thumbnail(crop='centre') (auto-rotates), then the alpha of a circle
                  (an SVG <circle>, rendered once per process) multiplied in; pngsave and
                  flatten(white) + jpegsave Q85, both stripped
  SHAPE   circle | square (the same crop without the mask: the twin) | webp | webp-square (WebP q80
          instead of PNG + JPEG)
  WORKERS 1 = serial in this process; N>1 = multiprocessing.Pool(N), one file per task
Outputs: OUTDIR/<stem>_<SIZE>.png and .jpg (or .webp).
"""
import os
import sys
from multiprocessing import Pool

_mask = {}


def _pil_mask(size):
    from PIL import Image, ImageDraw
    if size not in _mask:
        big = Image.new("L", (4 * size, 4 * size), 0)
        ImageDraw.Draw(big).ellipse((0, 0, 4 * size - 1, 4 * size - 1), fill=255)
        _mask[size] = big.resize((size, size), Image.Resampling.LANCZOS)
    return _mask[size]


def pil(path, out, size, shape):
    from PIL import Image, ImageChops, ImageOps
    with Image.open(path) as im:
        im.draft("RGB", (2 * size, 2 * size))
        ImageOps.exif_transpose(im, in_place=True)
        if im.mode not in ("RGB", "RGBA"):
            im = im.convert("RGBA" if "A" in im.getbands() or im.mode == "P" else "RGB")
        fit = ImageOps.fit(im, (size, size), method=Image.Resampling.LANCZOS)
    if shape in ("circle", "webp"):
        mask = _pil_mask(size)
        if fit.mode == "RGBA":
            mask = ImageChops.multiply(fit.getchannel("A"), mask)
        fit = fit.convert("RGBA")
        fit.putalpha(mask)
    if shape.startswith("webp"):
        fit.save(out + ".webp", "WEBP", quality=80)
        return
    fit.save(out + ".png", "PNG")
    flat = Image.new("RGB", fit.size, (255, 255, 255))
    flat.paste(fit, mask=fit.getchannel("A") if fit.mode == "RGBA" else None)
    flat.save(out + ".jpg", "JPEG", quality=85)


def pyv(path, out, size, shape):
    import pyvips
    im = pyvips.Image.thumbnail(path, size, height=size, crop="centre")
    if im.bands < 3:
        im = im.colourspace("srgb")
    if shape in ("circle", "webp"):
        if size not in _mask:
            r = size / 2
            svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}">'
                   f'<circle cx="{r}" cy="{r}" r="{r}" fill="#fff"/></svg>')
            _mask[size] = pyvips.Image.svgload_buffer(svg.encode())[3].copy_memory()
        mask = _mask[size]
        if im.hasalpha():
            im = im[:3].bandjoin((im[3] * mask / 255).cast("uchar"))
        else:
            im = im.bandjoin(mask)
    if shape.startswith("webp"):
        im.webpsave(out + ".webp", Q=80, strip=True)
        return
    im = im.copy_memory()
    im.pngsave(out + ".png", strip=True)
    (im.flatten(background=255) if im.hasalpha() else im).jpegsave(out + ".jpg", Q=85, strip=True)


def _task(args):
    tool, shape, size, path, outdir = args
    stem = os.path.splitext(os.path.basename(path))[0]
    {"pil": pil, "pyv": pyv}[tool](path, os.path.join(outdir, f"{stem}_{size}"), size, shape)
    return path


def main():
    tool, shape, size, workers, outdir, files = (sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]),
                                                  sys.argv[5], sys.argv[6:])
    os.makedirs(outdir, exist_ok=True)
    tasks = [(tool, shape, size, f, outdir) for f in files]
    if workers == 1:
        for t in tasks:
            _task(t)
    else:
        with Pool(workers) as pool:  # fork before libvips is started: pyvips is imported per task
            for _ in pool.imap_unordered(_task, tasks, chunksize=1):
                pass


if __name__ == "__main__":
    main()
