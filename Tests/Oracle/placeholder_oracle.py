"""Independent checks of cropjob's placeholders (PlaceholderOracleTests).

Input (argv[1]): JSON list of {path, placeholders, components}; the output files are read with
Pillow. Output: one JSON report per case, the differences the test holds to its tolerances.
References: PyPI blurhash 1.1.5 (encoder and decoder) and thumbhash 0.1.2 (encoder; its
average-colour decoder), installed by scripts/install-deps.sh; Pillow decodes the LQIP.
"""
import base64, io, json, math, sys
import numpy as np
from PIL import Image
import blurhash, thumbhash

def mean_rgba(a):
    """Alpha-weighted mean colour (0..255) and mean alpha (0..1) of an RGBA float array."""
    al = a[..., 3] / 255
    s = al.sum()
    rgb = (a[..., :3] * al[..., None]).sum(axis=(0, 1)) / s if s > 0 else np.zeros(3)
    return rgb, al.mean()

def composited(a):
    m, _ = mean_rgba(a)
    al = a[..., 3:4] / 255
    return a[..., :3] * al + (1 - al) * m

def bh_levels(h):
    """The quantised maximum (0..82) and each AC channel's level (0..18) of a BlurHash."""
    d = blurhash.blurhash.base83_decode
    nx, ny = blurhash.components(h)
    levels = []
    for i in range(1, nx * ny):
        v = d(h[4 + i * 2: 6 + i * 2])
        levels += [v // 361, (v // 19) % 19, v % 19]
    return d(h[1]), levels

def bh_values(h):
    """DC (sRGB 0..255) and AC (linear) values of a BlurHash, as its decoder reads them."""
    d = blurhash.blurhash.base83_decode
    nx, ny = blurhash.components(h)
    maxv = (d(h[1]) + 1) / 166
    dc = d(h[2:6]); dc = [dc >> 16, (dc >> 8) & 255, dc & 255]
    ac = []
    for i in range(1, nx * ny):
        v = d(h[4 + i * 2: 6 + i * 2])
        for q in (v // 361, (v // 19) % 19, v % 19):
            ac.append(math.copysign(((q - 9) / 9) ** 2, q - 9) * maxv)
    return (nx, ny), dc, ac

def th_values(b):
    """Header fields and AC values (scaled) of a ThumbHash."""
    h24 = b[0] | (b[1] << 8) | (b[2] << 16); h16 = b[3] | (b[4] << 8)
    alpha = h24 >> 23; land = h16 >> 15
    f = dict(l_dc=(h24 & 63) / 63, p_dc=((h24 >> 6) & 63) / 31.5 - 1, q_dc=((h24 >> 12) & 63) / 31.5 - 1,
             l_scale=((h24 >> 18) & 31) / 31, p_scale=((h16 >> 3) & 63) / 63, q_scale=((h16 >> 9) & 63) / 63,
             alpha=alpha, landscape=land, lcount=h16 & 7)
    start = 6 if alpha else 5
    nibbles = []
    for byte in b[start:]:
        nibbles += [byte & 15, byte >> 4]
    f["ac"] = [n / 15 for n in nibbles]
    return f

report = []
for case in json.loads(sys.argv[1]):
    im = Image.open(case["path"]).convert("RGBA")
    a = np.asarray(im, dtype=np.float64)
    ph = case["placeholders"]
    mean, mean_alpha = mean_rgba(a)
    out = {"path": case["path"], "mean": list(mean), "meanAlpha": mean_alpha}
    # BlurHash: the reference on the whole output, composited over its mean colour.
    comp = composited(a)
    nx, ny = case["components"]
    ref = blurhash.encode(comp.round().astype(int).tolist(), nx, ny)
    (rx, ry), rdc, rac = bh_values(ref)
    (ox, oy), odc, oac = bh_values(ph["blurhash"])
    out["blurhash"] = {"ref": ref, "ours": ph["blurhash"], "components": [ox, oy],
                       "dc": max(abs(x - y) for x, y in zip(rdc, odc)),
                       "ac": max(abs(x - y) for x, y in zip(rac, oac)) if rac else 0}
    (rmax, rlev), (omax, olev) = bh_levels(ref), bh_levels(ph["blurhash"])
    out["blurhash"]["maxLevels"] = abs(rmax - omax)
    # AC differences as a share of the reference's largest AC value (its quantisation's unit:
    # one level at the top of the square-root scale is 0.21 of it).
    out["blurhash"]["acShare"] = out["blurhash"]["ac"] / ((rmax + 1) / 166)
    # Decoded back (linear light, where the DC is the mean): against the output's mean there.
    dec = np.asarray(blurhash.decode(ph["blurhash"], 32, 32, linear=True), dtype=np.float64)
    lin = np.vectorize(blurhash.srgb_to_linear)(comp.round())
    out["blurhash"]["decodedMean"] = float(np.abs(dec.mean(axis=(0, 1)) - lin.mean(axis=(0, 1))).max())
    # ThumbHash: the reference's own pipeline (Pillow thumbnail to 100 px) for opaque outputs
    # (thumbhash 0.1.2's encoder fails on alpha: a tuple precedence bug); its average-colour
    # decoder for all.
    ours = list(base64.b64decode(ph["thumbhash"]))
    tf = th_values(ours)
    t = {"alpha": tf["alpha"]}
    if mean_alpha >= 1:
        small = im.copy(); small.thumbnail((100, 100))
        ref = thumbhash.rgba_to_thumb_hash(small.width, small.height, list(small.tobytes()))
        rf = th_values(ref)
        t["header"] = max(abs(rf[k] - tf[k]) for k in ["l_dc", "p_dc", "q_dc", "l_scale", "p_scale", "q_scale"])
        t["shape"] = [rf["alpha"], rf["landscape"], rf["lcount"], len(ref)] == [tf["alpha"], tf["landscape"], tf["lcount"], len(ours)]
        # AC values in LPQ units: (nibble/15*2-1)*scale per channel; compare by position.
        def acs(f, n):
            return [(x * 2 - 1) for x in f["ac"][:n]]
        t["ac"] = max(abs(x - y) for x, y in zip(acs(rf, len(rf["ac"])), acs(tf, len(tf["ac"]))))
    avg = thumbhash.thumb_hash_to_average_rgba(ours)
    t["averageColour"] = float(max(abs(avg[i] * 255 - mean[i]) for i in range(3)))
    t["averageAlpha"] = float(abs(avg[3] - mean_alpha))
    out["thumbhash"] = t
    # Dominant: the stated definition on Pillow's own 32 px premultiplied box copy.
    w, h = im.size
    size = (32, max(1, round(32 * h / w))) if w >= h else (max(1, round(32 * w / h)), 32)
    small = im.convert("RGBa").resize(size, Image.BOX).convert("RGBA") if max(w, h) > 32 else im
    s = np.asarray(small, dtype=np.float64).reshape(-1, 4)
    s = s[s[:, 3] >= 127.5]
    cells = (np.minimum(7, (s[:, 0] // 32)) * 64 + np.minimum(7, (s[:, 1] // 32)) * 8 + np.minimum(7, s[:, 2] // 32)).astype(int)
    counts = np.bincount(cells, minlength=512)
    dom = [int(ph["dominant"][i:i + 2], 16) for i in (1, 3, 5)]
    cell = (dom[0] // 32) * 64 + (dom[1] // 32) * 8 + dom[2] // 32
    best = int(counts.argmax())
    out["dominant"] = {"ours": ph["dominant"], "share": float(counts[cell] / max(1, counts.max())),
                       "distance": float(np.abs(s[cells == best, :3].mean(axis=0) - dom).max()) if len(s) else 0}
    # LQIP: decode the data URI with Pillow.
    uri = ph["lqip"]
    head, data = uri.split(",", 1)
    lq = Image.open(io.BytesIO(base64.b64decode(data)))
    la = np.asarray(lq.convert("RGBA"), dtype=np.float64)
    lmean, lalpha = mean_rgba(la)
    if lq.mode != "RGBA":
        ref_mean = comp.mean(axis=(0, 1))
    else:
        ref_mean = mean
    out["lqip"] = {"head": head, "format": lq.format, "size": list(lq.size), "length": len(uri),
                   "mean": float(np.abs(lmean - ref_mean).max()),
                   "alpha": float(abs(lalpha - mean_alpha)) if lq.mode == "RGBA" else 0.0}
    report.append(out)
print(json.dumps(report, indent=1))
