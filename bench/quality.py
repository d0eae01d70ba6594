"""The benchmark's quality column: mean absolute difference to a full-resolution Lanczos3
reference, each output aligned to the reference by its best sub-pixel shift first
(bench/README.md, "The quality column").

The reference is computed here, in numpy, from the photo's full-resolution decode (libvips:
EXIF orientation applied, alpha flattened on white): a separable Lanczos3 filter, widened to
the output's pixel size (3 output pixels of support on each side), whose output pixel i has
its centre on the source point  x0 + (i + 0.5 + d) / k  (continuous coordinates, pixel
centres at +0.5), where k is the output's scale, x0 the left edge of the exactly centred
region and d the shift. Taps beyond the photo repeat its edge pixels. Nothing is rounded:
the reference stays in floating point.

The reference is evaluated on a grid of shifts of 1/8 output pixel (8 phases per axis, each
one exact filter evaluation, never an interpolation of another reference: interpolating an
image by a fraction of a pixel blurs it, which would favour the tools that need no shift).
For each output the shift is found by a local search on that grid, starting at the
least-squares estimate from the reference's gradients, within +-1.5 output pixels.
"""
import numpy as np

STEP = 8            # phases per output pixel
PAD = 2             # whole pixels of shift that the precomputed passes allow each way
BAND = 2            # output pixels left out at each edge (tools treat the photo's edges differently)
LIMIT = 1.5         # largest shift searched, output pixels


def lanczos3(x):
    x = np.asarray(x, dtype=np.float64)
    out = np.sinc(x) * np.sinc(x / 3.0)
    out[np.abs(x) >= 3.0] = 0.0
    return out


def taps(n_in, n_out, k, x0, phase):
    """Indices and weights (n_out + 2 PAD, T) of the Lanczos3 filter for output positions
    -PAD .. n_out + PAD - 1 at the given phase (fraction of an output pixel)."""
    c = np.arange(-PAD, n_out + PAD, dtype=np.float64)
    u = x0 + (c + 0.5 + phase) / k - 0.5          # source index coordinates of the centres
    scale = min(k, 1.0)
    half = 3.0 / scale
    t = int(np.ceil(2 * half)) + 2
    first = np.floor(u - half).astype(np.int64) + 1
    idx = first[:, None] + np.arange(t)[None, :]
    w = lanczos3((idx - u[:, None]) * scale)
    w /= w.sum(axis=1, keepdims=True)
    return np.clip(idx, 0, n_in - 1), w.astype(np.float32)


def dense(n_in, idx, w):
    """The filter as a dense (outputs, n_in) matrix (clamped taps summed onto the edge pixel)."""
    m = np.zeros((idx.shape[0], n_in), np.float32)
    np.add.at(m, (np.repeat(np.arange(idx.shape[0]), idx.shape[1]), idx.ravel()), w.ravel())
    return m


def banded_matmul(x, m, block=32):
    """x (rows, n_in) @ m.T for a banded m (outputs, n_in): per block of outputs, only the
    input columns its taps reach."""
    out = np.empty((x.shape[0], m.shape[0]), np.float32)
    for o in range(0, m.shape[0], block):
        mb = m[o:o + block]
        nz = np.flatnonzero(mb.any(axis=0))
        lo, hi = nz[0], nz[-1] + 1
        out[:, o:o + block] = x[:, lo:hi] @ mb[:, lo:hi].T
    return out


class Reference:
    """Lanczos3 renders of one photo at one output size, on the 1/8-px shift grid, on demand."""

    def __init__(self, full, out_w, out_h, k, x0, y0):
        self.H, self.W = full.shape[:2]
        self.full = np.ascontiguousarray(full.transpose(2, 0, 1)).reshape(3 * self.H, self.W)
        self.w, self.h, self.k, self.x0, self.y0 = out_w, out_h, k, x0, y0
        self._h = {}                                  # x phase -> (3, H, w + 2 PAD)
        self._r = {}                                  # (x phase, y phase) -> (h + 2 PAD, w + 2 PAD, 3)

    def _hpass(self, p):
        if p not in self._h:
            m = dense(self.W, *taps(self.W, self.w, self.k, self.x0, p / STEP))
            self._h[p] = banded_matmul(self.full, m).reshape(3, self.H, -1)
        return self._h[p]

    def _render(self, px, py):
        key = (px, py)
        if key not in self._r:
            hp = self._hpass(px)
            m = dense(self.H, *taps(self.H, self.h, self.k, self.y0, py / STEP))
            x = hp.transpose(0, 2, 1).reshape(-1, self.H)
            r = banded_matmul(x, m).reshape(3, hp.shape[2], -1).transpose(2, 1, 0)
            if len(self._r) > 24:
                self._r.pop(next(iter(self._r)))
            self._r[key] = r
        return self._r[key]

    def at(self, sx, sy):
        """The reference shifted by (sx, sy) grid steps of 1/STEP output pixel."""
        nx, px = divmod(sx, STEP)
        ny, py = divmod(sy, STEP)
        r = self._render(px, py)
        return r[PAD + ny:PAD + ny + self.h, PAD + nx:PAD + nx + self.w]


def interior(a):
    return a[BAND:a.shape[0] - BAND, BAND:a.shape[1] - BAND] if min(a.shape[:2]) > 4 * BAND else a


def mad(out, ref):
    return float(np.abs(interior(out) - interior(ref)).mean())


def least_squares_shift(out, ref):
    """(dx, dy) in output pixels with out(x) ~ ref(x + d), linearised with ref's gradient."""
    g = interior(ref).mean(axis=2)
    gy, gx = np.gradient(g)
    r = interior(out).mean(axis=2) - g
    a = np.array([[np.sum(gx * gx), np.sum(gx * gy)], [np.sum(gx * gy), np.sum(gy * gy)]])
    if abs(np.linalg.det(a)) < 1e-9:
        return 0.0, 0.0
    d = np.linalg.solve(a, np.array([np.sum(gx * r), np.sum(gy * r)]))
    return float(d[0]), float(d[1])


def aligned(out, ref):
    """Best shift on the grid: returns (mad, mad at zero shift, (dx, dy) in output px)."""
    lim = int(LIMIT * STEP)
    seen = {}

    def cost(s):
        if s not in seen:
            seen[s] = mad(out, ref.at(*s))
        return seen[s]

    zero = cost((0, 0))
    dx, dy = least_squares_shift(out, ref.at(0, 0))
    best = (int(np.clip(round(dx * STEP), -lim, lim)), int(np.clip(round(dy * STEP), -lim, lim)))
    if cost(best) > zero:
        best = (0, 0)
    while True:
        around = [(best[0] + i, best[1] + j) for i in (-1, 0, 1) for j in (-1, 0, 1)
                  if abs(best[0] + i) <= lim and abs(best[1] + j) <= lim]
        nxt = min(around, key=cost)
        if nxt == best:
            break
        best = nxt
    return seen[best], zero, (best[0] / STEP, best[1] / STEP)


def region(src_w, src_h, size, out_w, out_h):
    """Scale and top-left corner of the exactly centred region: cover crop for a square
    size (job A's 256, B's 64/128/256, C's 128 of a web-size photo), a fit to the width
    (output height rounded) for job B's "1024" fit."""
    if size == "1024":
        k = out_w / src_w
    else:
        k = max(out_w / src_w, out_h / src_h)
    return k, (src_w - out_w / k) / 2, (src_h - out_h / k) / 2
