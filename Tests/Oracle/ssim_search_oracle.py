#!/usr/bin/python3
"""Quality search oracle for encode.target on JPEG (docs/job-file.md, "Perceptual quality target").

Usage: ssim_search_oracle.py TARGET MIN_QUALITY QUALITY REFERENCE [REFERENCE ...]
For each reference (the lossless pixels an output is encoded from), the quality the documented
search picks, found without cropjob or libvips: each candidate encoded by Pillow (libjpeg's
quality tables; chroma subsampled 4:2:0 under quality 90 and not from 90, as libvips' saver
does), decoded by Pillow and scored by ssim_oracle.py (scikit-image's structural_similarity on
luma). The search: the file at QUALITY; if it scores under TARGET, QUALITY; else a bisection
over [MIN_QUALITY, QUALITY - 1] for the lowest quality whose file scores at least TARGET.
Prints one line per reference: the quality, its score, and the lowest quality of the whole
range that scores at least TARGET, from scoring every quality (the same when the scores grow
with quality).
"""
import io
import os
import sys

import numpy as np
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ssim_oracle import luma, pixels  # noqa: E402
from skimage.metrics import structural_similarity  # noqa: E402


def score(reference, image, quality):
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=quality, subsampling=0 if quality >= 90 else 2)
    decoded = Image.open(io.BytesIO(buffer.getvalue()))
    b = luma(np.asarray(decoded.convert("L" if decoded.mode == "L" else "RGB"), dtype=np.float64))
    return structural_similarity(
        reference, b, gaussian_weights=True, sigma=1.5, use_sample_covariance=False, data_range=255)


def main(args):
    if len(args) < 4:
        raise SystemExit(__doc__)
    target, low_bound, top = float(args[0]), int(args[1]), int(args[2])
    for path in args[3:]:
        array = pixels(path)
        image = Image.fromarray(array.astype(np.uint8))
        reference = luma(array)
        scores = {}

        def at(quality):
            if quality not in scores:
                scores[quality] = score(reference, image, quality)
            return scores[quality]

        chosen = top
        if at(top) >= target:
            low, high = low_bound, top - 1
            while low <= high:
                mid = (low + high) // 2
                if at(mid) >= target:
                    chosen, high = mid, mid - 1
                else:
                    low = mid + 1
        lowest = next((q for q in range(low_bound, top + 1) if at(q) >= target), top)
        print(chosen, repr(at(chosen)), lowest)


if __name__ == "__main__":
    main(sys.argv[1:])
