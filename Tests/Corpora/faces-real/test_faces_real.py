#!/usr/bin/python3
"""Checks the real-photo corpus's files agree, and that the pixel check of the scorer can fail:
/usr/bin/python3 -m unittest discover -s Tests/Corpora/faces-real -p 'test_*.py'"""

import hashlib
import importlib.util
import json
import os
import tempfile
import unittest

from PIL import Image, ImageOps

HERE = os.path.dirname(os.path.abspath(__file__))
SCORERS = os.path.join(HERE, "..", "faces")


def load(name):
    spec = importlib.util.spec_from_file_location(name, os.path.join(SCORERS, name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


evaluate, recall = load("evaluate"), load("recall")


def read(name):
    with open(os.path.join(HERE, name)) as f:
        return json.load(f)


class CorpusTests(unittest.TestCase):
    def test_truth_layout_and_images_agree(self):
        truth, layout, ignore = read("truth.json"), read("layout.json"), read("ignore.json")
        images = sorted(os.listdir(os.path.join(HERE, "images")))
        self.assertEqual(sorted(truth), images)
        self.assertEqual(sorted(layout), images)
        self.assertGreaterEqual(len(images), 57)
        self.assertGreaterEqual(sum(map(len, truth.values())), 121)
        self.assertGreaterEqual(sum(1 for boxes in truth.values() if not boxes), 1)
        for name in images:
            with Image.open(os.path.join(HERE, "images", name)) as im:
                shown = ImageOps.exif_transpose(im).size
            self.assertEqual(list(shown), layout[name]["displayed"], name)
            for b in truth[name] + ignore.get(name, []):
                self.assertTrue(0 <= b["x"] and 0 <= b["y"] and b["width"] > 0 and b["height"] > 0, (name, b))
                self.assertLessEqual(b["x"] + b["width"], shown[0], (name, b))
                self.assertLessEqual(b["y"] + b["height"], shown[1], (name, b))
        self.assertLessEqual(set(ignore), set(images))

    def test_sha256sums(self):
        with open(os.path.join(HERE, "SHA256SUMS")) as f:
            for line in f:
                digest, path = line.split()
                with open(os.path.join(HERE, path), "rb") as image:
                    self.assertEqual(hashlib.sha256(image.read()).hexdigest(), digest, path)


class PixelCheckTests(unittest.TestCase):
    """evaluate.check_pixels on an output made here with Pillow (not by cropjob): the manifest
    that describes the written crop passes, one whose centre is off by a tenth fails."""

    name = "dlib-2008_002470.jpg"

    def manifest(self, root, cx):
        with Image.open(os.path.join(HERE, "images", self.name)) as im:
            src = ImageOps.exif_transpose(im).convert("RGB")
        side = 300.0  # a 300 px square about (250, 166), written as 200 px: scale 2/3
        src.resize((200, 200), Image.LANCZOS, box=(100, 16, 100 + side, 16 + side)).save(
            os.path.join(root, "a.png")
        )
        geometry = {"centre": {"x": cx, "y": 166.0}, "scale": 200 / side, "angle": 0}
        return {"outputs": [{"path": "a.png", "width": 200, "height": 200, "geometry": geometry,
                             "source": {"path": self.name}, "job": "t"}]}

    def test_the_written_crop_passes_and_another_fails(self):
        truth, images = read("truth.json"), os.path.join(HERE, "images")
        with tempfile.TemporaryDirectory() as root:
            mpath = os.path.join(root, "cropjob-manifest.json")
            self.assertEqual(evaluate.check_pixels(mpath, self.manifest(root, 250.0), truth, images), 1)
            with self.assertRaises(SystemExit):
                evaluate.check_pixels(mpath, self.manifest(root, 280.0), truth, images)


class RecallIgnoreTests(unittest.TestCase):
    def test_a_box_in_an_ignored_region_is_not_false(self):
        region = [{"x": 0, "y": 0, "width": 50, "height": 50}]
        self.assertTrue(recall.ignored({"x": 10, "y": 10, "width": 20, "height": 20}, region))
        self.assertFalse(recall.ignored({"x": 40, "y": 40, "width": 30, "height": 30}, region))
        found, false, missed, used = recall.match([{"x": 100, "y": 100, "width": 40, "height": 40}],
                                                  [{"x": 102, "y": 98, "width": 38, "height": 44},
                                                   {"x": 10, "y": 10, "width": 20, "height": 20}])
        self.assertEqual((found, false, missed, used), (1, 1, [], {0}))


if __name__ == "__main__":
    unittest.main()
