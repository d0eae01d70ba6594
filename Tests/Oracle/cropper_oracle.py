"""The canvases of Cropper.js and react-easy-crop, modelled in Pillow, for CropperFrameTests.

Both croppers draw the photo on a canvas the size of the bounding box of the image turned
by `rotate` (clockwise, about its centre), the image mirrored first (Cropper.js
`getSourceCanvas`: translate to the box's centre, rotate, scale(scaleX, scaleY), draw the
image centred; react-easy-crop's `getCroppedImg`: the same with its `flip`), and crop the
box `x, y, width, height` of that canvas (Cropper.js `getData()`, react-easy-crop's
`croppedAreaPixels`; `croppedArea` is the box in percent of the canvas). Cropper.js with
`checkOrientation` (its default) draws a JPEG as stored and folds its EXIF orientation into
`rotate`, `scaleX` and `scaleY` (`parseOrientation`); react-easy-crop (and Cropper.js without
it) draws the photo upright, as the browser shows it.

    cropper_oracle.py table FRAME CORPUS OUT.jsonl   writes the crop table of every case
    cropper_oracle.py check FRAME CORPUS OUTPUTS     prints each output's mean |difference|

FRAME: cropperjs (checkOrientation on, pixels), cropperjs-upright (checkOrientation off,
relative units) or react-easy-crop (percent units, flip). Cases: Landscape_1..8.jpg of
CORPUS, each turned by every angle of ANGLES (one job per angle), a mirror on every other
case; the box is 300 x 300 px centred 120 px right of and 80 px above the canvas's centre
(inside the photo at any angle). Outputs: OUTPUTS/a<angle>/Landscape_<n>.png (300 x 300).
"""

import json
import math
import sys

import numpy as np
from PIL import Image, ImageOps

ANGLES = [0, 20, -45, 90, 180]
BOX = 300
SHIFT = (120.0, -80.0)

# Cropper.js parseOrientation: orientation -> (rotate, scaleX, scaleY).
FOLDED = {1: (0, 1, 1), 2: (0, -1, 1), 3: (-180, 1, 1), 4: (0, 1, -1), 5: (90, 1, -1), 6: (90, 1, 1),
          7: (90, -1, 1), 8: (-90, 1, 1)}


def job(angle):
    return "a%d" % angle if angle >= 0 else "am%d" % -angle


def cases(frame, corpus):
    for n in range(1, 9):
        path = "%s/Landscape_%d.jpg" % (corpus, n)
        if frame == "cropperjs":
            image = Image.open(path)  # as stored: Cropper.js resets the orientation to 1
        else:
            image = ImageOps.exif_transpose(Image.open(path))
        image = image.convert("RGB")  # decoded once for all angles
        for k, angle in enumerate(ANGLES):
            mirror = (n + k) % 2 == 1
            if frame == "cropperjs":
                fold_rotate, sx, sy = FOLDED[n]
                rotate, scale_x, scale_y = fold_rotate + angle, -sx if mirror else sx, sy
            else:
                rotate, scale_x, scale_y = angle, -1 if mirror else 1, 1
            yield n, angle, path, image, rotate, scale_x, scale_y


def canvas_box(image, rotate):
    """The canvas's exact size (the turned image's bounding box) and the box on it."""
    r = math.radians(rotate)
    w, h = image.size
    bw = abs(w * math.cos(r)) + abs(h * math.sin(r))
    bh = abs(w * math.sin(r)) + abs(h * math.cos(r))
    x = bw / 2 + SHIFT[0] - BOX / 2
    y = bh / 2 + SHIFT[1] - BOX / 2
    return bw, bh, x, y


def table(frame, corpus, out):
    with open(out, "w") as f:
        for n, angle, path, image, rotate, scale_x, scale_y in cases(frame, corpus):
            bw, bh, x, y = canvas_box(image, rotate)
            row = {"source": path, "job": job(angle), "rotate": rotate}
            if frame == "cropperjs":
                row.update(x=x, y=y, width=BOX, height=BOX, scaleX=scale_x, scaleY=scale_y)
            elif frame == "cropperjs-upright":
                row.update(x=x / bw, y=y / bh, width=BOX / bw, height=BOX / bh, scaleX=scale_x, scaleY=scale_y)
            else:
                row.update(x=100 * x / bw, y=100 * y / bh, width=100 * BOX / bw, height=100 * BOX / bh)
                if scale_x == -1:
                    row["flip"] = "horizontal"
            f.write(json.dumps(row) + "\n")


def expected(image, rotate, scale_x, scale_y):
    """The canvas's box, sampled once: each output pixel turned back onto the mirrored image
    (one bicubic affine transform, the same as turning the whole image and cropping the box,
    without resampling twice)."""
    if scale_x == -1:
        image = ImageOps.mirror(image)
    if scale_y == -1:
        image = ImageOps.flip(image)
    bw, bh, x, y = canvas_box(image, rotate)
    w, h = image.size
    r = math.radians(rotate)
    c, s = math.cos(r), math.sin(r)
    # Output (u, v) is canvas (x + u, y + v); the canvas is the image turned clockwise by
    # `rotate` about its centre, placed at the canvas's centre (y down).
    dx, dy = x - bw / 2, y - bh / 2
    matrix = (c, s, c * dx + s * dy + w / 2, -s, c, -s * dx + c * dy + h / 2)
    return image.transform((BOX, BOX), Image.AFFINE, matrix, Image.BICUBIC)


def check(frame, corpus, outputs):
    for n, angle, path, image, rotate, scale_x, scale_y in cases(frame, corpus):
        want = np.asarray(expected(image, rotate, scale_x, scale_y), dtype=float)
        got = np.asarray(Image.open("%s/%s/Landscape_%d.png" % (outputs, job(angle), n)).convert("RGB"), dtype=float)
        print("%d %d %d %.3f" % (n, angle, scale_x * scale_y, np.abs(want - got).mean()))


if __name__ == "__main__":
    {"table": table, "check": check}[sys.argv[1]](*sys.argv[2:])
