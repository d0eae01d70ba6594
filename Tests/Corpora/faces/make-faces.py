#!/usr/bin/python3
"""make-faces.py: build the face corpus (Tests/Corpora/faces/images) and its ground truth.

Composites: head-and-shoulders patches cut from three real, licensed face photos are pasted,
scaled and sometimes mirrored, through a feathered elliptical mask into crops of the real
landscape photos in samples/, at positions drawn from a fixed seed. Each face's box in the
source photo was measured by hand (see README.md, "Face boxes"), so its box in the composite
follows exactly from the scale and the paste position. Real photos are copied (or rotated and
tagged) with their hand-checked boxes.

Writes, next to this script: images/*.jpg|png, truth.json (file -> list of {x, y, width,
height} in DISPLAYED pixels, i.e. after the EXIF orientation), layout.json (how each image was
made: background, aspect, orientation, per face the source photo, pose, scale, mirror) and
SHA256SUMS. Re-running reproduces every byte with the same Pillow / libjpeg-turbo / numpy /
exiftool versions (README.md lists them). Run with Debian's python3:

    /usr/bin/python3 Tests/Corpora/faces/make-faces.py
"""

import hashlib
import json
import math
import os
import random
import shutil
import subprocess
import sys

import numpy as np
from PIL import Image, ImageOps

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
SAMPLES = os.path.join(REPO, "samples")
OUT = os.path.join(HERE, "images")

SEED = 20261201
COMPOSITES = 80
QUALITY = 85

SKIMAGE_DATA = "/usr/lib/python3/dist-packages/skimage/data"
MPL_SAMPLE_DATA = "/usr/share/matplotlib/mpl-data/sample_data"

# Face photos: file, hand-measured face box (x, y, width, height) in the photo's own pixels,
# pose, weight in the draw. The box runs from the top of the forehead (hairline, or the cap's
# brim) to the bottom of the chin, and across the face at eye level, ears and hair excluded.
FACES = {
    "astronaut": {
        "path": os.path.join(SKIMAGE_DATA, "astronaut.png"),
        "box": (183, 66, 89, 96),
        "pose": "frontal",
        "weight": 40,
    },
    "hopper": {
        "path": os.path.join(MPL_SAMPLE_DATA, "grace_hopper.jpg"),
        "box": (172, 148, 194, 172),
        "pose": "frontal",
        "weight": 45,
    },
    "cameraman": {
        "path": os.path.join(SKIMAGE_DATA, "camera.png"),
        "box": (197, 126, 60, 69),
        "pose": "profile",
        "weight": 15,
    },
}

# Backgrounds: landscape photos from samples/ (no people in them), shown upright.
BACKGROUNDS = [
    "bridge.jpg",
    "mountains.jpg",
    "boats-gps.jpg",
    "forest-path.jpg",
    "kite.jpg",
    "ladybird.jpg",
    "nuthatch.jpg",
    "sunset-upside-down-3.jpg",
    "dragonfly-sideways-6.jpg",
]

ASPECTS = [(4, 3), (3, 2), (16, 9), (3, 4), (2, 3), (9, 16), (1, 1)]
LONG_SIDES = [640, 768, 896, 1024]
MIN_FACE = 40  # px, face box width in the composite
MAX_FACE_FRACTION = 0.35  # of the composite's short side
MAX_UPSCALE = 3.0  # a face patch is never enlarged more than this
EDGE_SLACK = 6  # px: "near an edge" means the face box is at most this far from it


def load_rgb(path):
    """The photo upright (EXIF orientation applied), as RGB."""
    with Image.open(path) as im:
        im.load()
        return ImageOps.exif_transpose(im).convert("RGB")


def patch_rect(box, size):
    """The head-and-shoulders rectangle around a face box, inside the photo."""
    fx, fy, fw, fh = box
    cx = fx + fw / 2
    x0 = max(0, round(cx - 1.2 * fw))
    x1 = min(size[0], round(cx + 1.2 * fw))
    y0 = max(0, round(fy - 0.5 * fh))
    y1 = min(size[1], round(fy + 2.0 * fh))
    return (x0, y0, x1, y1)


def ellipse_mask(width, height):
    """Opaque inside 85 % of the inscribed ellipse's radius, fading to 0 at its edge."""
    ys = (np.arange(height, dtype=np.float64) + 0.5 - height / 2) / (height / 2)
    xs = (np.arange(width, dtype=np.float64) + 0.5 - width / 2) / (width / 2)
    r = np.sqrt(xs[None, :] ** 2 + ys[:, None] ** 2)
    alpha = np.clip((1.0 - r) / 0.15, 0.0, 1.0)
    return Image.fromarray(np.round(alpha * 255).astype(np.uint8), "L")


def background(rng, name, width, height):
    """A random crop of the background photo with the composite's aspect, resized to it."""
    photo = load_rgb(os.path.join(SAMPLES, name))
    pw, ph = photo.size
    fit = min(pw / width, ph / height)
    scale = fit * rng.uniform(0.6, 1.0)
    cw, ch = width * scale, height * scale
    x0 = rng.uniform(0, pw - cw)
    y0 = rng.uniform(0, ph - ch)
    return photo.resize((width, height), Image.LANCZOS, box=(x0, y0, x0 + cw, y0 + ch))


def intersects(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def grow(rect, fraction):
    w, h = rect[2] - rect[0], rect[3] - rect[1]
    return (rect[0] - fraction * w, rect[1] - fraction * h, rect[2] + fraction * w, rect[3] + fraction * h)


def place_face(rng, canvas, faces, placed, count):
    """Draws one face placement that keeps earlier faces visible; None after 500 tries."""
    width, height = canvas
    short = min(width, height)
    names = sorted(FACES)
    weights = [FACES[n]["weight"] for n in names]
    for _ in range(500):
        name = rng.choices(names, weights)[0]
        info = faces[name]
        fx, fy, fw, fh = info["box"]
        px0, py0, px1, py1 = info["patch"]
        largest = min(MAX_FACE_FRACTION * short / math.sqrt(count), MAX_UPSCALE * fw)
        target = math.exp(rng.uniform(math.log(MIN_FACE), math.log(max(MIN_FACE + 1, largest))))
        scale = target / fw
        new_w, new_h = max(1, round((px1 - px0) * scale)), max(1, round((py1 - py0) * scale))
        sx, sy = new_w / (px1 - px0), new_h / (py1 - py0)
        mirror = rng.random() < 0.5
        rx, ry, rw, rh = (fx - px0) * sx, (fy - py0) * sy, fw * sx, fh * sy
        if mirror:
            rx = new_w - rx - rw
        mode = rng.random()
        if mode < 0.35:  # near an edge or a corner
            horizontal = rng.choice(["left", "right", "any"])
            vertical = rng.choice(["top", "bottom"]) if horizontal == "any" else rng.choice(["top", "bottom", "any"])
            left = {"left": rng.uniform(0, EDGE_SLACK), "right": width - rw - rng.uniform(0, EDGE_SLACK)}.get(
                horizontal, rng.uniform(0, max(0.0, width - rw))
            )
            top = {"top": rng.uniform(0, EDGE_SLACK), "bottom": height - rh - rng.uniform(0, EDGE_SLACK)}.get(
                vertical, rng.uniform(0, max(0.0, height - rh))
            )
            where = f"{vertical}-{horizontal}"
        else:
            left, top = rng.uniform(0, max(0.0, width - rw)), rng.uniform(0, max(0.0, height - rh))
            where = "inside"
        dx, dy = round(left - rx), round(top - ry)
        # The box in composite pixels, rounded outwards to whole pixels.
        bx0, by0 = math.floor(dx + rx), math.floor(dy + ry)
        bx1, by1 = math.ceil(dx + rx + rw), math.ceil(dy + ry + rh)
        if bx0 < 0 or by0 < 0 or bx1 > width or by1 > height:
            continue
        box = (bx0, by0, bx1, by1)
        patch = (dx, dy, dx + new_w, dy + new_h)
        if any(intersects(patch, grow(p["box"], 0.1)) or intersects(grow(box, 0.25), p["box"]) for p in placed):
            continue
        return {
            "source": name,
            "pose": info["pose"],
            "scale": round(scale, 6),
            "mirror": mirror,
            "where": where,
            "box": box,
            "patch": patch,
            "size": (new_w, new_h),
        }
    return None


def paste(canvas, faces, face):
    info = faces[face["source"]]
    piece = info["image"].crop(info["patch"]).resize(face["size"], Image.LANCZOS)
    if face["mirror"]:
        piece = ImageOps.mirror(piece)
    canvas.paste(piece, face["patch"][:2], ellipse_mask(*face["size"]))


def store(image, path, orientation):
    """Saves the displayed image; for orientation 3/6/8 the pixels are stored rotated and the
    tag is written by exiftool so that a viewer shows `image` again."""
    stored = {
        1: image,
        3: image.transpose(Image.ROTATE_180),
        6: image.transpose(Image.ROTATE_90),  # displayed = stored turned 90° clockwise
        8: image.transpose(Image.ROTATE_270),  # displayed = stored turned 90° anticlockwise
    }[orientation]
    stored.save(path, "JPEG", quality=QUALITY, subsampling="4:2:0", optimize=False, progressive=False)
    if orientation != 1:
        subprocess.run(
            ["exiftool", "-q", "-overwrite_original", "-n", f"-Orientation={orientation}", path], check=True
        )


def check_displayed(path, expected_size):
    with Image.open(path) as im:
        shown = ImageOps.exif_transpose(im)
        assert shown.size == expected_size, (path, shown.size, expected_size)


def composites(rng, faces, truth, layout):
    no_face = set(rng.sample(range(COMPOSITES), 6))
    orientation = {}
    for index in rng.sample(sorted(set(range(COMPOSITES)) - no_face), 12):
        orientation[index] = 6 if len(orientation) < 5 else 8 if len(orientation) < 10 else 3
    for index in range(COMPOSITES):
        name = f"c{index + 1:03d}.jpg"
        bg = BACKGROUNDS[index % len(BACKGROUNDS)]
        aw, ah = rng.choice(ASPECTS)
        long_side = rng.choice(LONG_SIDES)
        width, height = (long_side, round(long_side * ah / aw)) if aw >= ah else (round(long_side * aw / ah), long_side)
        canvas = background(rng, bg, width, height)
        count = 0 if index in no_face else rng.choices([1, 2, 3], [50, 30, 20])[0]
        placed = []
        for _ in range(count):
            face = place_face(rng, (width, height), faces, placed, count)
            if face is not None:
                placed.append(face)
        for face in placed:
            paste(canvas, faces, face)
        tag = orientation.get(index, 1)
        path = os.path.join(OUT, name)
        store(canvas, path, tag)
        check_displayed(path, (width, height))
        truth[name] = [box_json(f["box"]) for f in placed]
        layout[name] = {
            "kind": "composite",
            "background": f"samples/{bg}",
            "aspect": f"{aw}:{ah}",
            "displayed": [width, height],
            "orientation": tag,
            "faces": [
                {k: f[k] for k in ("source", "pose", "scale", "mirror", "where")} | {"box": box_json(f["box"])}
                for f in placed
            ],
        }


def box_json(box):
    x0, y0, x1, y1 = box
    return {"x": x0, "y": y0, "width": x1 - x0, "height": y1 - y0}


def real_photos(faces, truth, layout):
    """Real photos, not composites, with the hand-measured boxes (displayed pixels)."""
    astronaut = faces["astronaut"]["box"]
    hopper = faces["hopper"]["box"]
    camera = faces["cameraman"]["box"]
    copies = [
        ("real-astronaut.jpg", os.path.join(SAMPLES, "astronaut.jpg"), astronaut, "astronaut", "frontal", 1),
        # samples/portrait-sideways-8.jpg: the astronaut cropped from the left edge (x 0..351).
        ("real-astronaut-sideways-8.jpg", os.path.join(SAMPLES, "portrait-sideways-8.jpg"), astronaut, "astronaut", "frontal", 8),
        ("real-cameraman.png", os.path.join(SAMPLES, "cameraman.png"), camera, "cameraman", "profile", 1),
        ("real-hopper.jpg", faces["hopper"]["path"], hopper, "hopper", "frontal", 1),
    ]
    for name, source, box, who, pose, tag in copies:
        shutil.copyfile(source, os.path.join(OUT, name))
        add_real(truth, layout, name, source, box, who, pose, tag)
    name = "real-hopper-sideways-6.jpg"
    store(faces["hopper"]["image"], os.path.join(OUT, name), 6)
    add_real(truth, layout, name, faces["hopper"]["path"], hopper, "hopper", "frontal", 6)


def add_real(truth, layout, name, source, box, who, pose, tag):
    x, y, w, h = box
    path = os.path.join(OUT, name)
    with Image.open(path) as im:
        size = ImageOps.exif_transpose(im).size
    truth[name] = [{"x": x, "y": y, "width": w, "height": h}]
    origin = os.path.relpath(source, REPO) if source.startswith(REPO) else source
    layout[name] = {
        "kind": "real",
        "from": origin,
        "displayed": list(size),
        "orientation": tag,
        "faces": [{"source": who, "pose": pose, "box": truth[name][0]}],
    }


def main():
    rng = random.Random(SEED)
    if os.path.isdir(OUT):
        shutil.rmtree(OUT)
    os.makedirs(OUT)
    faces = {}
    for name, info in FACES.items():
        image = load_rgb(info["path"])
        faces[name] = dict(info, image=image, patch=patch_rect(info["box"], image.size))
    truth, layout = {}, {}
    composites(rng, faces, truth, layout)
    real_photos(faces, truth, layout)
    with open(os.path.join(HERE, "truth.json"), "w") as f:
        json.dump(truth, f, indent=1, sort_keys=True)
        f.write("\n")
    with open(os.path.join(HERE, "layout.json"), "w") as f:
        json.dump(layout, f, indent=1, sort_keys=True)
        f.write("\n")
    sums = []
    for name in sorted(os.listdir(OUT)):
        with open(os.path.join(OUT, name), "rb") as f:
            sums.append(f"{hashlib.sha256(f.read()).hexdigest()}  images/{name}\n")
    with open(os.path.join(HERE, "SHA256SUMS"), "w") as f:
        f.writelines(sums)
    total = sum(os.path.getsize(os.path.join(OUT, n)) for n in os.listdir(OUT))
    boxes = sum(len(v) for v in truth.values())
    print(f"{len(truth)} images, {boxes} face boxes, {total} bytes in images/", file=sys.stderr)
    assert total <= 8_000_000, "the corpus must stay under 8 MB"


if __name__ == "__main__":
    main()
