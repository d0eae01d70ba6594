#!/usr/bin/python3
"""A real face pasted into a large real photo, for SmallFaceTests: Pillow enlarges
samples/mountains.jpg (a real landscape, no people) to 2400 x 1200 (Lanczos), cuts the head of
samples/astronaut.jpg around its hand-measured face box (183, 66, 89, 96; Tests/Corpora/faces/
README.md), scales it with Lanczos so that the face box is FACE px wide, pastes it with its
top-left at (X, Y), and writes OUT as a JPEG (quality 95). Prints the face box in the output's
pixels as JSON [x, y, width, height].

Usage: paste_face.py SAMPLES_DIR OUT FACE X Y
"""
import json
import sys

from PIL import Image

samples, out, face, x, y = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
background = Image.open(f"{samples}/mountains.jpg").convert("RGB").resize((2400, 1200), Image.LANCZOS)
astronaut = Image.open(f"{samples}/astronaut.jpg").convert("RGB")
fx, fy, fw, fh = 183, 66, 89, 96
left, top, right, bottom = fx - 40, fy - 45, fx + fw + 40, fy + fh + 60
scale = face / fw
patch = astronaut.crop((left, top, right, bottom))
patch = patch.resize((round(patch.width * scale), round(patch.height * scale)), Image.LANCZOS)
background.paste(patch, (x, y))
background.save(out, quality=95)
print(json.dumps([x + (fx - left) * scale, y + (fy - top) * scale, fw * scale, fh * scale]))
