#!/usr/bin/python3
"""SSIM oracle for encode.target (docs/job-file.md, "Perceptual quality target").

Usage: ssim_oracle.py REFERENCE CANDIDATE [REFERENCE CANDIDATE ...]
Prints one score per pair, one a line: scikit-image's structural_similarity with
gaussian_weights=True, sigma=1.5, use_sample_covariance=False, data_range=255 on the luma
of both images. Decoded without libvips: Pillow for PNG, JPEG and WebP, avifdec (libavif)
for AVIF. Luma: 0.299 R + 0.587 G + 0.114 B (or the grey band), times alpha / 255.
"""
import os
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image
from skimage.metrics import structural_similarity


def pixels(path):
    with open(path, "rb") as f:
        head = f.read(12)
    if head[4:12] in (b"ftypavif", b"ftypavis"):
        with tempfile.TemporaryDirectory() as folder:
            png = os.path.join(folder, "decoded.png")
            subprocess.run(["avifdec", "--depth", "8", path, png], check=True, capture_output=True)
            return pixels(png)
    image = Image.open(path)
    image.load()
    modes = {"L": "L", "LA": "LA", "RGB": "RGB", "RGBA": "RGBA", "P": "RGBA", "I;16": "L"}
    if image.mode not in modes:
        raise SystemExit(f"{path}: unexpected mode {image.mode}")
    return np.asarray(image.convert(modes[image.mode]), dtype=np.float64)


def luma(a):
    if a.ndim == 2:
        return a
    bands = a.shape[2]
    if bands == 2:
        return a[..., 0] * (a[..., 1] / 255.0)
    y = 0.299 * a[..., 0] + 0.587 * a[..., 1] + 0.114 * a[..., 2]
    return y * (a[..., 3] / 255.0) if bands == 4 else y


def main(args):
    if len(args) < 2 or len(args) % 2:
        raise SystemExit(__doc__)
    for reference, candidate in zip(args[0::2], args[1::2]):
        a, b = luma(pixels(reference)), luma(pixels(candidate))
        if a.shape != b.shape:
            raise SystemExit(f"{reference} {a.shape} and {candidate} {b.shape} differ in size")
        score = structural_similarity(
            a, b, gaussian_weights=True, sigma=1.5, use_sample_covariance=False, data_range=255)
        print(repr(float(score)))


if __name__ == "__main__":
    main(sys.argv[1:])
