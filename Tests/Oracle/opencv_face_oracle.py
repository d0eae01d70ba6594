#!/usr/bin/python3
"""Faces found by a detector other than cropjob's, for FaceOracleTests: OpenCV's Haar frontal
cascade (Debian's python3-opencv 4.6 with opencv-data's haarcascade_frontalface_default.xml;
Viola-Jones, not the YuNet CNN cropjob runs). Pillow decodes and orients the photo (EXIF
orientation); OpenCV equalises its grey levels and searches at scale factor 1.1, 5 neighbours,
faces of at least 20 px. Prints one JSON object: each photo's path -> a list of
[x, y, width, height] in oriented pixels, sorted top, left.

Usage: opencv_face_oracle.py PHOTO...
"""
import json
import sys

import cv2
import numpy
from PIL import Image, ImageOps

CASCADE = "/usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml"

classifier = cv2.CascadeClassifier(CASCADE)
if classifier.empty():
    sys.exit(f"cannot load {CASCADE} (opencv-data)")
result = {}
for photo in sys.argv[1:]:
    grey = numpy.asarray(ImageOps.exif_transpose(Image.open(photo)).convert("L"))
    found = classifier.detectMultiScale(cv2.equalizeHist(grey), scaleFactor=1.1, minNeighbors=5, minSize=(20, 20))
    result[photo] = sorted(([int(v) for v in box] for box in found), key=lambda b: (b[1], b[0]))
print(json.dumps(result))
