"""The independent check of PhoneFormatTests: each output cropjob wrote against the pixels it
must have, computed here with Pillow and numpy from the reference PNGs (the encoders' inputs)
or from the encoder's own decoder (avifdec, heif-convert, dwebp: expected-*.png).

Arguments: OUTPUT_DIR, then NAME=EXPECTED:TRANSFORM pairs; prints NAME MAXDIFF per line.
TRANSFORM: none, rot90 (anticlockwise, HEIF irot 1), rot270 (irot 3), flipud (imir top-to-
bottom), fliplr (imir left-to-right)."""
import os
import sys

import numpy as np
from PIL import Image

here = os.path.dirname(os.path.abspath(__file__))
out = sys.argv[1]
for item in sys.argv[2:]:
    name, spec = item.split("=")
    expected, transform = spec.split(":")
    want = np.asarray(Image.open(os.path.join(here, expected))).astype(int)
    want = {
        "none": lambda a: a,
        "rot90": lambda a: np.rot90(a, 1),
        "rot270": lambda a: np.rot90(a, 3),
        "flipud": lambda a: a[::-1],
        "fliplr": lambda a: a[:, ::-1],
    }[transform](want)
    got = np.asarray(Image.open(os.path.join(out, name + ".png"))).astype(int)
    if got.shape != want.shape:
        print(name, "shape", got.shape, want.shape)
    else:
        print(name, int(np.abs(got - want).max()))
