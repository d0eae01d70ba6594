#!/usr/bin/python3
"""Independent face detection for FaceDetectorTests: Pillow decodes and orients the photo
(EXIF orientation), shrinks it with a box filter to a long side of at most 512 px, and
OpenCV's Python binding (python3-opencv) runs the same cascade with the same parameters
(scale 1.1, 4 neighbours, 20 px minimum, equalised histogram). Prints one JSON list of
[x, y, width, height] boxes in oriented full-resolution pixels.

Usage: face_oracle.py CASCADE.xml PHOTO
"""
import json
import sys

import cv2
import numpy
from PIL import Image, ImageOps

cascade_path, photo = sys.argv[1], sys.argv[2]
image = ImageOps.exif_transpose(Image.open(photo)).convert("RGB")
width, height = image.size
factor = max(1.0, max(width, height) / 512)
small = image.resize((round(width / factor), round(height / factor)), Image.BOX) if factor > 1 else image
grey = cv2.equalizeHist(cv2.cvtColor(numpy.array(small), cv2.COLOR_RGB2GRAY))
cv2.setNumThreads(0)
boxes, _ = cv2.CascadeClassifier(cascade_path).detectMultiScale2(grey, 1.1, 4, 0, (20, 20))
sx, sy = width / small.size[0], height / small.size[1]
print(json.dumps([[float(x * sx), float(y * sy), float(w * sx), float(h * sy)] for (x, y, w, h) in boxes]))
