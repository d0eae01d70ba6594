#!/usr/bin/python3
"""Independent face detection for FaceDetectorTests: Pillow decodes and orients the photo
(EXIF orientation), shrinks it with a box filter to a long side of at most 512 px, and the
yuface wheel's own Python binding (pybind11, not cropjob's loader) runs libfacedetection on
the BGR pixels. Keeps the boxes scored at least MIN_SCORE, maps them to oriented
full-resolution pixels, clips them to the photo, and prints one JSON list of
[x, y, width, height, score, eye1x, eye1y, eye2x, eye2y] sorted top, left, width.

Usage: face_oracle.py WHEEL_FOLDER MIN_SCORE PHOTO
"""
import json
import sys

import numpy
from PIL import Image, ImageOps

folder, min_score, photo = sys.argv[1], int(sys.argv[2]), sys.argv[3]
sys.path.insert(0, folder)
from yuface import yuface  # noqa: E402  (the compiled binding, from the wheel's folder)

image = ImageOps.exif_transpose(Image.open(photo)).convert("RGB")
width, height = image.size
factor = max(1.0, max(width, height) / 512)
small = image.resize((round(width / factor), round(height / factor)), Image.BOX) if factor > 1 else image
bgr = numpy.ascontiguousarray(numpy.array(small)[:, :, ::-1])
sx, sy = width / small.size[0], height / small.size[1]
faces = []
for row in yuface.detect(bgr):
    score, x, y, w, h = (int(v) for v in row[:5])
    if score < min_score or w <= 0 or h <= 0:
        continue
    x0, y0 = max(0.0, x * sx), max(0.0, y * sy)
    x1, y1 = min(float(width), (x + w) * sx), min(float(height), (y + h) * sy)
    if x1 <= x0 or y1 <= y0:
        continue
    eyes = [float(row[5]) * sx, float(row[6]) * sy, float(row[7]) * sx, float(row[8]) * sy]
    faces.append([x0, y0, x1 - x0, y1 - y0, score] + eyes)
faces.sort(key=lambda b: (b[1], b[0], b[2]))
print(json.dumps(faces))
