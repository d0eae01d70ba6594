"""Independent area average of 8-bit pixels, premultiplied (PlaceholderCopyTests).

argv[1]: JSON list of {path, width, height, bands, w, h}; each path holds width x height x
bands raw bytes (grey, grey+alpha, RGB or RGBA, alpha straight and last). Output: one list
per case of w x h x 4 numbers: premultiplied red, green, blue (colour x alpha / 255) and alpha
(0..1), each copy pixel the mean of the pixels it covers weighted by the area covered, computed
as two weight matrices with exact rational weights (fractions) applied by numpy.
"""
import json, sys
from fractions import Fraction
import numpy as np

def weights(n_from, n_to):
    """n_to x n_from: row o holds the share of each input pixel in output cell o."""
    m = np.zeros((n_to, n_from))
    for o in range(n_to):
        begin, end = Fraction(o * n_from, n_to), Fraction((o + 1) * n_from, n_to)
        for i in range(n_from):
            overlap = min(end, i + 1) - max(begin, i)
            if overlap > 0:
                m[o, i] = float(overlap / (end - begin))
    return m

out = []
for case in json.loads(sys.argv[1]):
    a = np.fromfile(case["path"], dtype=np.uint8).astype(np.float64)
    a = a.reshape(case["height"], case["width"], case["bands"])
    bands = case["bands"]
    alpha = a[..., -1] / 255 if bands in (2, 4) else np.ones(a.shape[:2])
    colour = [a[..., 0], a[..., 0], a[..., 0]] if bands < 3 else [a[..., 0], a[..., 1], a[..., 2]]
    planes = [c * alpha for c in colour] + [alpha]
    wy, wx = weights(case["height"], case["h"]), weights(case["width"], case["w"])
    result = np.stack([wy @ p @ wx.T for p in planes], axis=-1)
    out.append(result.reshape(-1).tolist())
print(json.dumps(out))
