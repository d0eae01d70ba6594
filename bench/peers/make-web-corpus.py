#!/usr/bin/env python3
"""make-web-corpus.py — web-size photos for bench job C, made reproducibly from the 56-photo corpus.

usage: make-web-corpus.py CORPUS OUTDIR [N]      (N: number of files, default 1000)

Every file is a crop of one corpus photo as it is displayed (EXIF orientation applied, so the
crops are upright), resized with Lanczos to 640..1280 px on the long side:
  - source:  corpus photo i % 56 (all 56, each about 18 times; the 8 PNGs included);
  - aspect:  one of 1:1, 4:3, 3:4, 3:2, 2:3, 16:9, 9:16, 4:5;
  - region:  55..100 % of the largest region of that aspect the photo holds, at any position
             (never smaller than the output: no upscaling);
  - format:  exactly 10 % PNG: about 40 % of them RGBA (the alpha of an RGBA corpus PNG, else a
             soft elliptical alpha), 50 % RGB, 10 % greyscale;
             the rest baseline JPEG q90 4:2:0, each with a small EXIF block (Orientation,
             ImageDescription, Artist, Copyright from the corpus MANIFEST.tsv); exactly 10 % of all
             files are JPEGs stored sideways or upside down (Orientation 6, 8 or 3, pixels rotated so
             that the displayed picture is the upright crop), the other JPEGs carry Orientation 1.
Every choice comes from SHA-256 of "cropjob-web-corpus:<index>:<name>", not from Python's random
module, so it does not depend on the Python version. The bytes depend on the encoders: run it with
the bench venv's Pillow (pinned in requirements.txt, wheels with their own libjpeg-turbo and zlib);
another Pillow build gives the same pictures in different bytes, and SHA256SUMS will say so.

Writes OUTDIR/*.jpg, *.png, MANIFEST.tsv (file, stored size, orientation, source, crop box,
author, licence), SHA256SUMS and SUMMARY.txt (counts, bytes, web_corpus_sha256, Pillow version,
the input corpus_sha256). Two processes (fork), one source photo per task.
"""
import hashlib
import os
import sys
from multiprocessing import Pool

from PIL import Image, ImageDraw, ImageFilter, ImageOps, features

SALT = "cropjob-web-corpus"
ASPECTS = [(1, 1), (4, 3), (3, 4), (3, 2), (2, 3), (16, 9), (9, 16), (4, 5)]
ROTATE = {3: Image.Transpose.ROTATE_180,   # stored pixels = upright picture turned so that the
          6: Image.Transpose.ROTATE_90,    # viewer's rotation (3: 180, 6: 90 cw, 8: 90 ccw)
          8: Image.Transpose.ROTATE_270}   # gives the upright picture back


def h(i, name):
    """A number in [0, 1) for file i and choice name, the same on every machine."""
    d = hashlib.sha256(f"{SALT}:{i}:{name}".encode()).digest()
    return int.from_bytes(d[:8], "big") / 2 ** 64


def plan(n, sources):
    """The list of files: exactly n // 10 PNG and n // 10 sideways JPEG, chosen by hash rank."""
    ranked = sorted(range(n), key=lambda i: h(i, "kind"))
    png, turned = set(ranked[:n // 10]), set(ranked[n // 10:2 * (n // 10)])
    files = []
    for i in range(n):
        src = sources[i % len(sources)]
        aw, ah = ASPECTS[int(h(i, "aspect") * len(ASPECTS))]
        long_side = 640 + int(h(i, "long") * 641)
        w, h_ = (long_side, round(long_side * ah / aw)) if aw >= ah else (round(long_side * aw / ah), long_side)
        if i in png:
            kind = "grey" if h(i, "pngmode") < 0.1 else "rgba" if h(i, "pngmode") < 0.5 else "rgb"
            orient = 1
        else:
            kind = "jpeg"
            orient = (6, 8, 3)[int(h(i, "orient") * 3)] if i in turned else 1
        files.append({"i": i, "src": src, "w": w, "h": h_, "aspect": f"{aw}x{ah}", "kind": kind, "orient": orient,
                      "zoom": 0.55 + 0.45 * h(i, "zoom"), "fx": h(i, "x"), "fy": h(i, "y")})
    return files


def soft_ellipse(size):
    """An alpha mask: opaque ellipse inscribed in the picture, soft edge, transparent corners."""
    w, h_ = size
    m = Image.new("L", (w, h_), 0)
    e = max(4, min(w, h_) // 20)
    ImageDraw.Draw(m).ellipse((e, e, w - 1 - e, h_ - 1 - e), fill=255)
    return m.filter(ImageFilter.GaussianBlur(e / 2))


def make_from(args):
    corpus, out, src, items, meta = args
    with Image.open(os.path.join(corpus, src)) as im:
        im = ImageOps.exif_transpose(im)
        im.load()
    W, H = im.size
    rows = []
    for f in items:
        w, h_ = f["w"], f["h"]
        # the largest region of the output's aspect, then zoomed in, never below the output's size
        if W * h_ > H * w:
            cw, ch = H * w / h_, H
        else:
            cw, ch = W, W * h_ / w
        z = max(f["zoom"], w / cw, h_ / ch)
        rw, rh = cw * z, ch * z
        x0, y0 = f["fx"] * (W - rw), f["fy"] * (H - rh)
        box = (round(x0, 2), round(y0, 2), round(x0 + rw, 2), round(y0 + rh, 2))
        pic = im.resize((w, h_), Image.Resampling.LANCZOS, box=box, reducing_gap=3.0)
        stem = os.path.splitext(src)[0].split("-")[1]
        if f["kind"] == "jpeg":
            name = f"w{f['i']:04d}-{stem}-{f['aspect']}-o{f['orient']}.jpg"
            if pic.mode in ("RGBA", "LA"):
                bg = Image.new("RGB", pic.size, (255, 255, 255))
                bg.paste(pic.convert("RGBA"), mask=pic.convert("RGBA").getchannel("A"))
                pic = bg
            pic = pic.convert("RGB")
            if f["orient"] != 1:
                pic = pic.transpose(ROTATE[f["orient"]])
            exif = Image.Exif()
            exif[0x0112] = f["orient"]
            exif[0x010E] = f"cropjob bench web corpus {name}; crop of corpus/{src}"
            exif[0x013B] = meta[src][0]
            exif[0x8298] = meta[src][1]
            pic.save(os.path.join(out, name), "JPEG", quality=90, subsampling=2, optimize=False,
                     progressive=False, exif=exif.tobytes())
        else:
            name = f"w{f['i']:04d}-{stem}-{f['aspect']}-{f['kind']}.png"
            if f["kind"] == "grey":
                pic = pic.convert("L")
            elif f["kind"] == "rgb":
                pic = pic.convert("RGB")
            elif pic.mode != "RGBA":
                pic = pic.convert("RGB")
                pic.putalpha(soft_ellipse(pic.size))
            pic.save(os.path.join(out, name), "PNG", compress_level=6)
        sw, sh = (h_, w) if f["orient"] in (6, 8) else (w, h_)
        rows.append((f["i"], name, f"{sw}x{sh}", f["orient"] if f["kind"] == "jpeg" else "-",
                     f"{w}x{h_} ({len(pic.getbands())} bands)", src,
                     "%.2f,%.2f,%.2f,%.2f" % box, meta[src][0], meta[src][1]))
    return rows


def main():
    corpus, out = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
    sources = sorted(x for x in os.listdir(corpus) if x.endswith((".jpg", ".png")))
    meta = {}
    with open(os.path.join(corpus, "MANIFEST.tsv")) as mf:
        head = mf.readline().rstrip("\n").split("\t")
        for line in mf:
            r = dict(zip(head, line.rstrip("\n").split("\t")))
            meta[r["file"]] = (r["author"], r["licence"])
    os.makedirs(out, exist_ok=True)
    for x in os.listdir(out):
        if x.endswith((".jpg", ".png")):
            os.remove(os.path.join(out, x))
    files = plan(n, sources)
    tasks = [(corpus, out, s, [f for f in files if f["src"] == s], meta) for s in sources]
    with Pool(2) as pool:
        rows = sorted(r for rs in pool.imap_unordered(make_from, tasks) for r in rs)
    with open(os.path.join(out, "MANIFEST.tsv"), "w") as mf:
        mf.write("file\tstored_wxh\texif_orientation\tdisplayed\tsource (corpus/)\tcrop_box_upright\tauthor\tlicence\n")
        for r in rows:
            mf.write("\t".join(str(x) for x in r[1:]) + "\n")
    names = [r[1] for r in rows]
    with open(os.path.join(out, "SHA256SUMS"), "w") as sf:
        for name in sorted(names):
            sf.write(f"{hashlib.sha256(open(os.path.join(out, name), 'rb').read()).hexdigest()}  ./{name}\n")
    jp = [x for x in names if x.endswith(".jpg")]
    pn = [x for x in names if x.endswith(".png")]
    size = lambda xs: sum(os.path.getsize(os.path.join(out, x)) for x in xs)
    corpus_sha = [l.split("=", 1)[1].strip() for l in open(os.path.join(corpus, "SUMMARY.txt")) if l.startswith("corpus_sha256=")]
    summary = [f"jpeg_files={len(jp)} jpeg_bytes={size(jp)} sideways={sum(1 for r in rows if r[3] not in (1, '-'))}",
               f"png_files={len(pn)} png_bytes={size(pn)} with_alpha={sum(1 for r in rows if '(4 bands)' in r[4] or '(2 bands)' in r[4])}",
               f"total_files={len(names)} total_bytes={size(names)}",
               "web_corpus_sha256=" + hashlib.sha256(open(os.path.join(out, "SHA256SUMS"), "rb").read()).hexdigest(),
               f"from corpus_sha256={corpus_sha[0] if corpus_sha else '?'}",
               f"pillow={Image.__version__} libjpeg-turbo={features.version('libjpeg_turbo')} zlib={features.version('zlib')}"]
    open(os.path.join(out, "SUMMARY.txt"), "w").write("\n".join(summary) + "\n")
    print("\n".join(summary))


if __name__ == "__main__":
    main()
