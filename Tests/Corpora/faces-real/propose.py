#!/usr/bin/python3
"""propose.py: first-guess face boxes from OpenCV's Haar cascades (not cropjob's YuNet).

    propose.py IMAGE... > proposed.json

Each image is read as displayed (Pillow's exif_transpose), converted to grey and equalised, and
searched with Debian's OpenCV 4.6 cascades (python3-opencv, opencv-data): the frontal
`haarcascade_frontalface_default.xml` and the profile `haarcascade_profileface.xml` on the image
and on its mirror (scale factor 1.1, 5 neighbours, minimum 20 px); a profile box that overlaps a
frontal one (IoU > 0.3) is dropped. Prints file name -> list of {x, y, width, height, cascade}.
These are PROPOSALS: truth.json is the hand-checked result (README.md, "Truth boxes").
"""

import json
import os
import sys

import cv2
import numpy as np
from PIL import Image, ImageOps

CASCADES = "/usr/share/opencv4/haarcascades"


def iou(a, b):
    ax2, ay2, bx2, by2 = a[0] + a[2], a[1] + a[3], b[0] + b[2], b[1] + b[3]
    w = max(0, min(ax2, bx2) - max(a[0], b[0]))
    h = max(0, min(ay2, by2) - max(a[1], b[1]))
    inter = w * h
    return inter / float(a[2] * a[3] + b[2] * b[3] - inter) if inter else 0.0


def propose(path):
    grey = np.asarray(ImageOps.exif_transpose(Image.open(path)).convert("L"))
    grey = cv2.equalizeHist(grey)
    width = grey.shape[1]
    frontal = cv2.CascadeClassifier(os.path.join(CASCADES, "haarcascade_frontalface_default.xml"))
    profile = cv2.CascadeClassifier(os.path.join(CASCADES, "haarcascade_profileface.xml"))
    args = dict(scaleFactor=1.1, minNeighbors=5, minSize=(20, 20))
    boxes = [(*map(int, r), "frontal") for r in frontal.detectMultiScale(grey, **args)]
    side = [tuple(map(int, r)) for r in profile.detectMultiScale(grey, **args)]
    side += [(width - int(x) - int(w), int(y), int(w), int(h))
             for x, y, w, h in profile.detectMultiScale(np.ascontiguousarray(grey[:, ::-1]), **args)]
    for r in side:
        if all(iou(r, b[:4]) <= 0.3 for b in boxes):
            boxes.append((*r, "profile"))
    return [dict(x=x, y=y, width=w, height=h, cascade=c) for x, y, w, h, c in sorted(boxes)]


if __name__ == "__main__":
    print(json.dumps({os.path.basename(p): propose(p) for p in sorted(sys.argv[1:])}, indent=1))
