#!/usr/bin/python3
"""Independent face detection for FaceDetectorTests: Pillow decodes and orients the photo
(EXIF orientation), shrinks it with a box filter to a long side of at most 512 px, and
OpenCV's Python binding (python3-opencv) runs the frontal cascade and then the profile cascade
on the photo and on its mirror image with the documented parameters (docs/job-file.md: scale
step 1.1 and 4 neighbours frontal, 1.2 and 5 profile, 20 px minimum, equalised histogram, a mirrored border
of an eighth of the short side, boxes mostly in the border dropped, a profile box dropped when
it overlaps a box already kept, surer profile boxes first). Prints one JSON list of
[x, y, width, height, profile] boxes in oriented full-resolution pixels (profile 0 or 1),
sorted top, left, width.

Usage: face_oracle.py FRONTAL.xml PROFILE.xml PHOTO
"""
import json
import sys

import cv2
import numpy
from PIL import Image, ImageOps

frontal_path, profile_path, photo = sys.argv[1], sys.argv[2], sys.argv[3]
image = ImageOps.exif_transpose(Image.open(photo)).convert("RGB")
width, height = image.size
factor = max(1.0, max(width, height) / 512)
small = image.resize((round(width / factor), round(height / factor)), Image.BOX) if factor > 1 else image
grey = cv2.equalizeHist(cv2.cvtColor(numpy.array(small), cv2.COLOR_RGB2GRAY))
cv2.setNumThreads(0)
w, h = small.size
border = min(w, h) // 8


def detect(path, picture, step, neighbours, flipped):
    padded = cv2.copyMakeBorder(picture, border, border, border, border, cv2.BORDER_REFLECT_101)
    boxes, counts = cv2.CascadeClassifier(path).detectMultiScale2(padded, step, neighbours, 0, (20, 20))
    kept = []
    for (x, y, bw, bh), n in zip(boxes, counts):
        x0, y0 = max(0, x - border), max(0, y - border)
        x1, y1 = min(w, x - border + bw), min(h, y - border + bh)
        if x1 <= x0 or y1 <= y0 or 2 * (x1 - x0) * (y1 - y0) < bw * bh:
            continue
        if flipped:
            x0, x1 = w - x1, w - x0
        kept.append((int(x0), int(y0), int(x1 - x0), int(y1 - y0), int(n)))
    return kept


def overlaps(a, b):
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


faces = [box + (0,) for box in detect(frontal_path, grey, 1.1, 4, False)]
profiles = detect(profile_path, grey, 1.2, 5, False) + detect(profile_path, cv2.flip(grey, 1), 1.2, 5, True)
for box in sorted(profiles, key=lambda b: (-b[4], b[1], b[0], b[2])):
    if not any(overlaps(box, kept) for kept in faces):
        faces.append(box + (1,))
faces.sort(key=lambda b: (b[1], b[0], b[2], b[5]))
sx, sy = width / w, height / h
print(json.dumps([[x * sx, y * sy, bw * sx, bh * sy, p] for (x, y, bw, bh, _, p) in faces]))
