#!/usr/bin/env python3
"""make-resized.py WEBCORPUS OUTDIR LONG N: N upright JPEGs (q90, no metadata) whose long side is
LONG px, file i made from web-corpus file i mod 1,000 (sorted names) by pyvips' thumbnail (orientation
applied, alpha flattened on white). Job C640 (issue 25): N = 1,000 at 640; job Ds: 2,000 at 120 (an
avatar library re-processed). Not checked against sums: libvips' resize makes them, not a pinned Pillow.
"""
import glob
import os
import sys

import pyvips

src, out, long_side, n = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
files = sorted(glob.glob(os.path.join(src, "*.jpg")) + glob.glob(os.path.join(src, "*.png")))
os.makedirs(out, exist_ok=True)
for i in range(n):
    f = files[i % len(files)]
    im = pyvips.Image.thumbnail(f, long_side, height=long_side, size="down")
    if im.hasalpha():
        im = im.flatten(background=255)
    im.jpegsave(os.path.join(out, "%04d_%s.jpg" % (i, os.path.splitext(os.path.basename(f))[0])), Q=90, strip=True)
open(os.path.join(out, ".done"), "w").write("%d\n" % n)
