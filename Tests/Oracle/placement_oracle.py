#!/usr/bin/python3
"""Independent oracle for cropjob's placements (PlacementImageTests).

Given the numbers of a job (source photo, guide, place, output size), this script computes
from docs/geometry.md alone, without reading anything cropjob planned or recorded:

  * the source -> output affine transform and the exact output size (fit, zoom, focus,
    offset, rotate, flip, crop with angle, clamp / fill / shrink, upscale cap, output scale);
  * the expected image: Pillow decodes the photo and applies its EXIF orientation
    (ImageOps.exif_transpose), shrinks JPEGs on load as documented (by 8, 4 or 2 while the
    output keeps at least one decoded pixel per output pixel: Pillow's draft(), libjpeg's DCT
    scaling), then box pre-shrinks with Image.reduce() by the whole factor that leaves the
    scale at or above 1/4, and the picture
    is resampled ONCE, in premultiplied RGBA, at the preimages of the output pixel centres
    (+0.5), in numpy, as docs/resampling.md says:
    where the placement has no rotation or shear (flips allowed) and the photo covers the
    output, separably, per axis Lanczos3 stretched by the ratio on a downscale and the Catmull-Rom
    cubic otherwise, edge pixels repeated; elsewhere a downscale is first done by that
    separable resample to the output's scale, and the point-sampled Catmull-Rom cubic (the
    kernel libvips calls bicubic) then turns and places it at a ratio of about 1; the background fills what the photo does not cover,
    the circle mask follows the documented formula, and formats without alpha are flattened
    onto the background. The same resample is also done with Pillow as a second witness
    (reported): its resize over the output's preimage (LANCZOS on a downscale, BICUBIC
    otherwise) in the separable case, else a LANCZOS resize to the output's scale (on a
    downscale) and Image.transform(AFFINE, inverse coefficients, BICUBIC), whose cubic has a = -1 (sharper than Catmull-Rom's -1/2);

then compares that with the file cropjob wrote: exact size, and per channel (R, G, B
premultiplied by alpha, and alpha) the mean and max absolute difference over the pixels
that are at least 2 px away from the output's edges and from every edge between photo and
background and of the circle.

Usage: placement_oracle.py CASES.json [--save-expected DIR]
CASES.json: {"cases": [{"name", "source" (absolute path), "guide", "place", "output"
(the job file's output entry: {"path", "scales" | "widths"}), "actual" (absolute path of
the file cropjob wrote)}]}. "guide" and "place" are exactly the job file's mappings.
Prints a JSON list of results on stdout and a table on stderr.
"""

import json
import math
import os
import sys

import numpy as np
from PIL import Image, ImageOps

# ---------------------------------------------------------------------------- job numbers

NAMED = {
    "centre": (0.5, 0.5), "center": (0.5, 0.5), "middle": (0.5, 0.5),
    "top": (0.5, 0.0), "bottom": (0.5, 1.0), "left": (0.0, 0.5), "right": (1.0, 0.5),
    "top-left": (0.0, 0.0), "top-right": (1.0, 0.0),
    "bottom-left": (0.0, 1.0), "bottom-right": (1.0, 1.0),
}
COLOURS = {
    "white": (255, 255, 255, 255), "black": (0, 0, 0, 255), "transparent": (0, 0, 0, 0),
    "grey": (128, 128, 128, 255), "gray": (128, 128, 128, 255),
}
ALPHA_FORMATS = {"png", "webp", "avif", "heif", "heic", "tif", "tiff", "jxl"}


def colour(value):
    if isinstance(value, list):
        return tuple(value) + ((255,) if len(value) == 3 else ())
    if value.lower() in COLOURS:
        return COLOURS[value.lower()]
    digits = value[1:]
    if len(digits) in (3, 4):
        digits = "".join(c * 2 for c in digits)
    if len(digits) == 6:
        digits += "ff"
    return tuple(int(digits[i:i + 2], 16) for i in range(0, 8, 2))


def guide_size(guide):
    if "size" in guide:
        return float(guide["size"]), float(guide["size"])
    if "width" in guide and "height" in guide:
        return float(guide["width"]), float(guide["height"])
    a, b = (float(v) for v in guide["aspect"].split(":"))
    if "width" in guide:
        return float(guide["width"]), float(round(guide["width"] * b / a))
    return float(round(guide["height"] * a / b)), float(guide["height"])


def flips(place):
    value = place.get("flip", "none")
    items = value if isinstance(value, list) else [value]
    h = any(v in ("horizontal", "both") for v in items)
    v = any(v in ("vertical", "both") for v in items)
    return h, v


def round_half_away(v):
    return int(math.floor(abs(v) + 0.5)) * (1 if v >= 0 else -1)


# ---------------------------------------------------------------------------- geometry (docs/geometry.md)

def mat(a, b, c, d, tx, ty):
    return np.array([[a, b, tx], [c, d, ty], [0.0, 0.0, 1.0]])


def translate(x, y):
    return mat(1, 0, 0, 1, x, y)


def scaling(sx, sy=None):
    return mat(sx, 0, 0, sx if sy is None else sy, 0, 0)


def cos_sin(deg):
    """Exact values on quarter turns (section 1)."""
    q = deg / 90.0
    if q == round(q):
        return [(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)][int(round(q)) % 4]
    r = math.radians(deg)
    return math.cos(r), math.sin(r)


def rotation(deg):
    c, s = cos_sin(deg)
    return mat(c, -s, s, c, 0, 0)


def apply(m, x, y):
    return m[0, 0] * x + m[0, 1] * y + m[0, 2], m[1, 0] * x + m[1, 1] * y + m[1, 2]


def base_scale(fit, W, H, gw, gh, deg):
    """Section 2.1."""
    c, n = (abs(v) for v in cos_sin(deg))
    if fit == "cover":
        return max((gw * c + gh * n) / W, (gw * n + gh * c) / H)
    if fit == "contain":
        return min(gw / (W * c + H * n), gh / (W * n + H * c))
    return 1.0


def clip_polygon(points, x0, y0, x1, y1):
    """Sutherland-Hodgman clip of a convex polygon to a rectangle."""
    def clip(poly, inside, cut):
        out = []
        for i, p in enumerate(poly):
            q = poly[(i + 1) % len(poly)]
            if inside(p):
                out.append(p)
                if not inside(q):
                    out.append(cut(p, q))
            elif inside(q):
                out.append(cut(p, q))
        return out

    def at_x(x):
        return lambda p, q: (x, p[1] + (q[1] - p[1]) * (x - p[0]) / (q[0] - p[0]))

    def at_y(y):
        return lambda p, q: (p[0] + (q[0] - p[0]) * (y - p[1]) / (q[1] - p[1]), y)

    poly = list(points)
    for inside, cut in [(lambda p: p[0] >= x0, at_x(x0)), (lambda p: p[0] <= x1, at_x(x1)),
                        (lambda p: p[1] >= y0, at_y(y0)), (lambda p: p[1] <= y1, at_y(y1))]:
        if not poly:
            break
        poly = clip(poly, inside, cut)
    return poly


def snap(v):
    r = round(v)
    return float(r) if abs(v - r) <= 1e-7 else v


def place(W, H, guide, pl, k):
    """Source (oriented) px -> output px, output size, guide frame and scale (sections 2.1-2.8)."""
    gw, gh = guide_size(guide)
    fh, fv = flips(pl)
    F = scaling(-1.0 if fh else 1.0, -1.0 if fv else 1.0)
    crop = pl.get("crop")
    fit = pl.get("fit", "cover")
    overflow = pl.get("overflow", "clamp")
    if crop:
        # 2.6: the crop maps onto the whole guide; its aspect wins beyond 1 %.
        s = gw / crop["width"]
        if abs(s - gh / crop["height"]) / s > 0.01:
            gh = crop["height"] * s
        deg = float(crop.get("angle", 0))
        p = (crop["x"] + crop["width"] / 2.0, crop["y"] + crop["height"] / 2.0)
        lin = F @ rotation(deg) @ scaling(s)
    else:
        deg = float(pl.get("rotate", 0))
        s = base_scale(fit, W, H, gw, gh, deg) * float(pl.get("zoom", 1))
        focus = pl.get("focus", "centre")
        fx, fy = NAMED[focus] if isinstance(focus, str) else focus
        lin = F @ rotation(deg) @ scaling(s)
        inv = np.linalg.inv(lin)
        dx, dy = pl.get("offset", [0, 0])
        # 2.3: the photo follows the drag on screen; the centre moves the other way.
        p = (fx * W - (inv[0, 0] * dx + inv[0, 1] * dy), fy * H - (inv[1, 0] * dx + inv[1, 1] * dy))
        if overflow == "clamp":
            # 2.5: the guide's preimage must stay in the photo; centre the photo on an axis
            # where it is smaller than the guide.
            corners = [apply(inv, cx - gw / 2, cy - gh / 2) for cx, cy in [(0, 0), (gw, 0), (gw, gh), (0, gh)]]
            px, py = p
            lo, hi = max(-c[0] for c in corners), W - max(c[0] for c in corners)
            px = W / 2 if lo > hi else min(max(px, lo), hi)
            lo, hi = max(-c[1] for c in corners), H - max(c[1] for c in corners)
            py = H / 2 if lo > hi else min(max(py, lo), hi)
            p = (px, py)
    contain = not crop and fit == "contain"

    def fitted(ow, oh):
        return (min if contain else max)(ow / gw, oh / gh)

    # 2.7: output size round(g k), the guide fitted over (or into) it, centred.
    ow, oh = max(1, round_half_away(gw * k)), max(1, round_half_away(gh * k))
    kk = fitted(ow, oh)
    if kk * s > 1 + 1e-9 and pl.get("upscale", True) is False:
        # 2.8: at most one output pixel per source pixel.
        ow, oh = max(1, int(math.floor(gw / s + 1e-9))), max(1, int(math.floor(gh / s + 1e-9)))
        kk = fitted(ow, oh)
    T = translate(ow / 2.0, oh / 2.0) @ scaling(kk) @ lin @ translate(-p[0], -p[1])
    frame = [ow / 2.0 - kk * gw / 2, oh / 2.0 - kk * gh / 2, kk * gw, kk * gh]
    if overflow == "shrink":
        # 2.5: trim to the photo's footprint, edges to the nearest pixel, ties inwards.
        foot = clip_polygon([apply(T, x, y) for x, y in [(0, 0), (W, 0), (W, H), (0, H)]], 0, 0, ow, oh)
        if foot:
            xs, ys = [q[0] for q in foot], [q[1] for q in foot]

            def edges(lo, hi, extent):
                a = min(max(int(math.floor(snap(lo) + 0.5)), 0), extent - 1)
                b = max(min(int(math.ceil(snap(hi) - 0.5)), extent), a + 1)
                return a, b

            x0, x1 = edges(min(xs), max(xs), ow)
            y0, y1 = edges(min(ys), max(ys), oh)
            T = translate(-x0, -y0) @ T
            frame[0] -= x0
            frame[1] -= y0
            ow, oh = x1 - x0, y1 - y0
    return T, (ow, oh), frame, kk * s


def covers(T, size, W, H):
    """Section 2.9: all four corners of the output's preimage lie in the photo (1e-6 px)."""
    tinv = np.linalg.inv(T)
    ow, oh = size
    for x, y in [(0, 0), (ow, 0), (0, oh), (ow, oh)]:
        sx, sy = apply(tinv, x, y)
        if not (-1e-6 <= sx <= W + 1e-6 and -1e-6 <= sy <= H + 1e-6):
            return False
    return True


def orientation_transform(W, H, orientation):
    """Section 3: stored (x, y) of a W x H stored image -> oriented (x, y)."""
    return {
        2: mat(-1, 0, 0, 1, W, 0), 3: mat(-1, 0, 0, -1, W, H), 4: mat(1, 0, 0, -1, 0, H),
        5: mat(0, 1, 1, 0, 0, 0), 6: mat(0, -1, 1, 0, H, 0), 7: mat(0, -1, -1, 0, H, W),
        8: mat(0, 1, -1, 0, 0, W),
    }.get(orientation, mat(1, 0, 0, 1, 0, 0))


def catmull_rom_affine(premultiplied, inv, size, fill):
    """Resamples a premultiplied RGBA array at the preimages of the output pixel centres
    (`inv`: output px -> input px, centres at +0.5) with the Catmull-Rom cubic (a = -1/2),
    taps outside the image taking the (premultiplied) fill colour; returns straight RGBA."""
    ow, oh = size
    h, w = premultiplied.shape[:2]
    padded = np.empty((h + 6, w + 6, 4))
    padded[...] = np.array(fill, dtype=np.float64)
    padded[3:h + 3, 3:w + 3] = premultiplied
    ys, xs = np.mgrid[0:oh, 0:ow] + 0.5
    u = inv[0, 0] * xs + inv[0, 1] * ys + inv[0, 2] - 0.5
    v = inv[1, 0] * xs + inv[1, 1] * ys + inv[1, 2] - 0.5
    iu, iv = np.floor(u), np.floor(v)
    fu, fv = u - iu, v - iv

    def weights(f):
        return [((-f + 2) * f - 1) * f / 2, ((3 * f - 5) * f * f + 2) / 2, ((-3 * f + 4) * f + 1) * f / 2,
                (f - 1) * f * f / 2]

    wu, wv = weights(fu), weights(fv)
    out = np.zeros((oh, ow, 4))
    for j in range(4):
        row = np.clip(iv + j - 1 + 3, 0, h + 5).astype(np.int64)
        for i in range(4):
            col = np.clip(iu + i - 1 + 3, 0, w + 5).astype(np.int64)
            out += (wu[i] * wv[j])[..., None] * padded[row, col]
    return unpremultiply(out)


def axis_weights(n_out, n_in, scale, offset):
    """Dense (n_out, n_in) weights of one axis of the separable resample (docs/resampling.md):
    output pixel i is centred on input u = (i + 0.5 - offset) / scale - 0.5 (index
    coordinates); at |scale| >= 1 the Catmull-Rom cubic on 4 taps, at |scale| < 1 Lanczos3
    stretched by the ratio 1 / |scale| on 2 ceil(3 / |scale|) + 1 taps, weights normalised to
    sum to 1; taps beyond the edges repeat the edge pixels."""
    u = (np.arange(n_out) + 0.5 - offset) / scale - 0.5   # a negative scale mirrors (a flip)
    if abs(scale) >= 1:
        base = np.floor(u) - 1
        f = u - np.floor(u)
        w = np.stack([((-f + 2) * f - 1) * f / 2, ((3 * f - 5) * f * f + 2) / 2,
                      ((-3 * f + 4) * f + 1) * f / 2, (f - 1) * f * f / 2], axis=1)
    else:
        ratio = 1.0 / abs(scale)
        support = 3.0 * ratio
        taps = 2 * int(math.ceil(support)) + 1
        base = np.floor(u - support) + 1
        x = (base[:, None] + np.arange(taps)[None, :] - u[:, None]) / ratio
        w = np.where(np.abs(x) < 3, np.sinc(x) * np.sinc(x / 3), 0.0)
        w /= w.sum(axis=1, keepdims=True)
    idx = np.clip(base[:, None] + np.arange(w.shape[1])[None, :], 0, n_in - 1).astype(np.int64)
    m = np.zeros((n_out, n_in))
    np.add.at(m, (np.repeat(np.arange(n_out), w.shape[1]), idx.ravel()), w.ravel())
    return m


def separable_resample(premultiplied, M, size, straight=True):
    """The axis-aligned, covered case (M: input px -> output px, no rotation or shear):
    rows and columns filtered separately (axis_weights); returns straight RGBA (or, with
    straight=False, still premultiplied)."""
    ow, oh = size
    h, w = premultiplied.shape[:2]
    wx = axis_weights(ow, w, M[0, 0], M[0, 2])
    wy = axis_weights(oh, h, M[1, 1], M[1, 2])
    out = np.einsum("yi,ijc,xj->yxc", wy, premultiplied, wx, optimize=True)
    return unpremultiply(out) if straight else out


def reduction_before_affine(M, w, h):
    """docs/resampling.md: before the affine (a rotation, or an output the photo does not
    cover), a downscale is done separably to the output's scale s = sqrt(|det M|), to a whole
    number of pixels per axis (round(w s), round(h s)); returns the per-axis factors and that
    size, or None when s >= 0.999 (no downscale)."""
    s = math.sqrt(abs(np.linalg.det(M[:2, :2])))
    if s >= 0.999:
        return None
    rw, rh = max(1, round_half_away(w * s)), max(1, round_half_away(h * s))
    return rw / w, rh / h, (rw, rh)


def unpremultiply(out):
    out = np.clip(out, 0, 255)
    a = out[..., 3:4]
    out[..., :3] = np.where(a > 0, np.clip(out[..., :3] * 255.0 / np.maximum(a, 1e-9), 0, 255), 0)
    return out


def circle_mask(size, frame):
    """Section 4: round(clamp(r - |pixel centre - circle centre| + 0.5, 0, 1) * 255)."""
    ow, oh = size
    r = min(frame[2], frame[3]) / 2
    cx, cy = frame[0] + frame[2] / 2, frame[1] + frame[3] / 2
    ys, xs = np.mgrid[0:oh, 0:ow]
    d = np.hypot(xs + 0.5 - cx, ys + 0.5 - cy)
    return np.floor(np.clip(r - d + 0.5, 0, 1) * 255 + 0.5)


# ---------------------------------------------------------------------------- pixels

def output_scale(output, guide):
    if "scales" in output:
        return float(output["scales"][0])
    if "widths" in output:
        return output["widths"][0] / guide_size(guide)[0]
    if "size" in output:
        return output["size"] / guide_size(guide)[0]
    return 1.0


def expected_image(case, kernel):
    guide, pl, output = case["guide"], case["place"], case["output"]
    ext = os.path.splitext(output["path"])[1].lstrip(".").lower()
    fmt = (output.get("encode") or {}).get("format", ext)
    has_alpha_format = fmt in ALPHA_FORMATS
    stored = Image.open(case["source"])
    is_jpeg = stored.format == "JPEG"
    orientation = stored.getexif().get(0x0112, 1) if is_jpeg or stored.format in ("TIFF", "WEBP", "PNG") else 1
    Ws, Hs = stored.size
    W, H = (Hs, Ws) if orientation in (5, 6, 7, 8) else (Ws, Hs)
    source_alpha = stored.mode in ("RGBA", "LA", "PA") or "transparency" in stored.info
    T, size, frame, scale = place(W, H, guide, pl, output_scale(output, guide))
    ow, oh = size

    # Pre-shrink, as documented: JPEG shrink-on-load by 8, 4 or 2 while the output keeps at
    # least one decoded pixel per output pixel (Pillow's draft(): libjpeg's DCT scaling,
    # in stored orientation), then a whole box factor (Pillow's reduce()) while the scale
    # is below 1/2.
    load = next((f for f in (8, 4, 2) if f * scale <= 1.0), 1) if is_jpeg else 1
    if load > 1:
        stored.draft(stored.mode, (Ws // load, Hs // load))
        assert stored.size == (-(-Ws // load), -(-Hs // load)), (stored.size, Ws, Hs, load)
    Wd, Hd = stored.size
    # Oriented source px -> decoded oriented px: undo the orientation, divide by the load
    # shrink in stored pixels, orient again (the partial last block moves with the photo).
    D = orientation_transform(Wd, Hd, orientation) @ scaling(1.0 / load) @ np.linalg.inv(
        orientation_transform(Ws, Hs, orientation))
    src = ImageOps.exif_transpose(stored).convert("RGBA")
    decoded_scale = scale * load  # output px per decoded px
    # Box shrink (docs/resampling.md) while the remaining ratio stays at least 2: the separable
    # resample (no rotation or shear; flips allowed; photo covering the output) or, for the
    # affine, the separable reduce before it takes the rest.
    Md = T @ np.linalg.inv(D)  # decoded px -> output px
    separable = Md[0, 1] == 0 and Md[1, 0] == 0 and Md[0, 0] != 0 and Md[1, 1] != 0 and covers(T, (ow, oh), W, H)
    box = int(math.floor(0.5 / decoded_scale)) if decoded_scale < 0.25 else 1
    factor = load * box
    pm = src.convert("RGBa")
    if box > 1:
        pm = pm.reduce(box)
    M = Md @ scaling(box)  # reduced px -> output px
    inv = np.linalg.inv(M)

    # Uncovered pixels: the background (default transparent with alpha, else white).
    default_bg = (0, 0, 0, 0) if has_alpha_format else (255, 255, 255, 255)
    bg = colour(pl["background"]) if "background" in pl else default_bg
    if not has_alpha_format:
        # Without alpha, a partly transparent background is composited over white.
        bg = tuple(int(round(c * bg[3] / 255.0 + 255 * (1 - bg[3] / 255.0))) for c in bg[:3]) + (255,)
    fill_alpha = bg[3] if has_alpha_format else 255
    fill = tuple(int(round(c * fill_alpha / 255.0)) for c in bg[:3]) + (fill_alpha,)
    if kernel == "pillow" and separable:
        # Pillow's own resize over the output's preimage: LANCZOS widens on a downscale as
        # cropjob's separable resample does; BICUBIC (a = -1/2 in resize) otherwise.
        # (a flip: resized over the mirrored box, then mirrored).
        w, h = pm.size
        xs = sorted([-M[0, 2] / M[0, 0], (ow - M[0, 2]) / M[0, 0]])
        ys = sorted([-M[1, 2] / M[1, 1], (oh - M[1, 2]) / M[1, 1]])
        box = (max(0.0, xs[0]), max(0.0, ys[0]), min(float(w), xs[1]), min(float(h), ys[1]))
        method = Image.LANCZOS if min(abs(M[0, 0]), abs(M[1, 1])) < 1 else Image.BICUBIC
        out = pm.resize((ow, oh), method, box=box)
        if M[0, 0] < 0:
            out = out.transpose(Image.FLIP_LEFT_RIGHT)
        if M[1, 1] < 0:
            out = out.transpose(Image.FLIP_TOP_BOTTOM)
        rgba = np.asarray(out.convert("RGBA"), dtype=np.float64).copy()
    elif kernel == "pillow":
        reduction = reduction_before_affine(M, *pm.size)
        if reduction:
            sx, sy, reduced_size = reduction
            pm = pm.resize(reduced_size, Image.LANCZOS)
            inv = np.linalg.inv(M @ scaling(1 / sx, 1 / sy))
        out = pm.transform((ow, oh), Image.AFFINE, tuple(inv[0]) + tuple(inv[1]), resample=Image.BICUBIC, fillcolor=fill)
        rgba = np.asarray(out.convert("RGBA"), dtype=np.float64).copy()
    elif separable:
        rgba = separable_resample(np.asarray(pm, dtype=np.float64), M, (ow, oh))
    else:
        pixels = np.asarray(pm, dtype=np.float64)
        reduction = reduction_before_affine(M, *pm.size)
        if reduction:
            sx, sy, reduced_size = reduction
            pixels = separable_resample(pixels, scaling(sx, sy), reduced_size, straight=False)
            inv = np.linalg.inv(M @ scaling(1 / sx, 1 / sy))
        rgba = catmull_rom_affine(pixels, inv, (ow, oh), fill)

    circle = guide.get("shape") == "circle"
    mask = circle_mask(size, frame) if circle else None
    if circle:
        rgba[..., 3] = np.floor(rgba[..., 3] * mask / 255.0 + 0.5)
    if not has_alpha_format:
        a = rgba[..., 3:4] / 255.0
        rgba[..., :3] = rgba[..., :3] * a + np.array(bg[:3], dtype=np.float64) * (1 - a)
        rgba[..., 3] = 255

    # Where the photo is: pixel centres whose preimage lies in [0, W] x [0, H].
    tinv = np.linalg.inv(T)
    ys, xs = np.mgrid[0:oh, 0:ow] + 0.5
    sx = tinv[0, 0] * xs + tinv[0, 1] * ys + tinv[0, 2]
    sy = tinv[1, 0] * xs + tinv[1, 1] * ys + tinv[1, 2]
    on_photo = (sx >= 0) & (sx <= W) & (sy >= 0) & (sy <= H)
    regions = on_photo.astype(np.int32)
    if circle:
        regions = regions * 3 + np.where(mask >= 255, 2, np.where(mask <= 0, 0, 1))
    info = {"scale": scale, "size": [ow, oh], "transform": [list(T[0]), list(T[1])],
            "preshrink": factor, "load_shrink": load, "covered_fraction": float(on_photo.mean()),
            "source_alpha": bool(source_alpha)}
    return rgba, regions, info


def comparable(regions, band=2):
    """True where a pixel is at least `band` px from the output edge and from any change of
    region (photo / background / circle edge)."""
    oh, ow = regions.shape
    keep = np.zeros_like(regions, dtype=bool)
    if oh <= 2 * band or ow <= 2 * band:
        return keep
    keep[band:oh - band, band:ow - band] = True
    padded = np.pad(regions, band, mode="edge")
    lo = regions.copy()
    hi = regions.copy()
    for dy in range(-band, band + 1):
        for dx in range(-band, band + 1):
            window = padded[band + dy:band + dy + oh, band + dx:band + dx + ow]
            lo = np.minimum(lo, window)
            hi = np.maximum(hi, window)
    keep &= lo == hi
    if regions.max() >= 3:  # circle: partially covered pixels (region 1 / 4) are edges too
        keep &= (regions % 3) != 1
    return keep


def compare(case, save_dir=None, kernel="catmull-rom"):
    expected, regions, info = expected_image(case, kernel)
    actual_img = Image.open(case["actual"])
    actual_mode = actual_img.mode
    actual = np.asarray(actual_img.convert("RGBA"), dtype=np.float64)
    result = {"name": case["name"], "expected_size": info["size"], "actual_size": list(actual_img.size),
              "actual_mode": actual_mode, "scale": info["scale"], "preshrink": info["preshrink"],
              "load_shrink": info["load_shrink"], "transform": info["transform"],
              "covered_fraction": info["covered_fraction"]}
    if save_dir:
        Image.fromarray(np.clip(np.floor(expected + 0.5), 0, 255).astype(np.uint8), "RGBA").save(
            os.path.join(save_dir, case["name"] + "-expected.png"))
    if list(actual_img.size) != info["size"]:
        result.update(mean=[None] * 4, max=[None] * 4, compared=0, shift=None)
        return result
    keep = comparable(regions)

    def premultiplied(x):
        y = x.copy()
        y[..., :3] = x[..., :3] * x[..., 3:4] / 255.0
        return y

    e, a = premultiplied(expected), premultiplied(actual)
    diff = np.abs(e - a)[keep]
    result["compared"] = int(keep.sum())
    result["pixels"] = int(regions.size)
    result["mean"] = [float(v) for v in diff.mean(axis=0)] if len(diff) else [0.0] * 4
    result["max"] = [float(v) for v in diff.max(axis=0)] if len(diff) else [0.0] * 4
    result["shift"] = subpixel_shift(e, a, keep)
    if kernel != "pillow":
        # The same with Pillow's own resize or transform (the second witness, above).
        pillow = compare(case, kernel="pillow")
        result["pillow_mean"] = pillow["mean"]
    return result
    return result


def subpixel_shift(expected, actual, keep):
    """Least-squares (dx, dy), in output pixels, by which the actual picture sits displaced
    from the expected one: actual(x) ~ expected(x - d), linearised with expected's gradient.
    None when it cannot be measured (too few pixels compared, or no gradient to measure it by):
    never a made-up zero."""
    gy, gx = np.gradient(expected[..., :3].mean(axis=2))
    r = (expected[..., :3].mean(axis=2) - actual[..., :3].mean(axis=2))[keep]
    gx, gy = gx[keep], gy[keep]
    a = np.array([[np.dot(gx, gx), np.dot(gx, gy)], [np.dot(gx, gy), np.dot(gy, gy)]])
    if len(r) < 16 or abs(np.linalg.det(a)) < 1e-9:
        return None
    d = np.linalg.solve(a, np.array([np.dot(gx, r), np.dot(gy, r)]))
    return [float(d[0]), float(d[1])]


def main(argv):
    with open(argv[1]) as f:
        cases = json.load(f)["cases"]
    save_dir = argv[argv.index("--save-expected") + 1] if "--save-expected" in argv else None
    results = [compare(case, save_dir) for case in cases]
    print(json.dumps(results))
    for r in results:
        mean = "/".join("-" if v is None else "%.2f" % v for v in r["mean"])
        mx = "/".join("-" if v is None else "%.0f" % v for v in r["max"])
        shift = "%+.2f,%+.2f" % tuple(r["shift"]) if r.get("shift") else "unmeasured"
        pillow = "/".join("-" if v is None else "%.2f" % v for v in r.get("pillow_mean", []))
        sys.stderr.write("%-28s %4dx%-4d scale %.4f pre %d  mean RGBA %s  max %s  shift %s  (%d px)  Pillow a=-1: %s\n" % (
            r["name"], r["expected_size"][0], r["expected_size"][1], r["scale"], r["preshrink"], mean, mx, shift,
            r["compared"], pillow))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
