#!/usr/bin/python3
"""Checks evaluate.py's footprint arithmetic on hand-worked outputs:
/usr/bin/python3 -m unittest discover -s Tests/Corpora/faces -p 'test_*.py'"""

import importlib.util
import os
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("evaluate", os.path.join(HERE, "evaluate.py"))
evaluate = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(evaluate)


def output(cx, cy, scale, angle=0, width=256, height=256):
    return {"width": width, "height": height, "geometry": {"centre": {"x": cx, "y": cy}, "scale": scale, "angle": angle}}


def box(x, y, w, h):
    return {"x": x, "y": y, "width": w, "height": h}


class FootprintTests(unittest.TestCase):
    # 1000x600 photo, 256 square at scale 0.32: footprint 800x800 would not fit the photo, so
    # use scale 0.512 -> 500x500 about (500, 300): x 250..750, y 50..550.
    size = (1000, 600)

    def test_inside_and_fits(self):
        verdict = evaluate.judge(output(500, 300, 0.512), [box(300, 100, 100, 100)], self.size, 0.2, 0.5)
        self.assertEqual(verdict, (True, True, True, True))

    def test_padding_pushes_a_face_out(self):
        # Face x 260..360: inside unpadded; 20 % padding reaches x 240 < 250.
        o = output(500, 300, 0.512)
        self.assertEqual(evaluate.judge(o, [box(260, 100, 100, 100)], self.size, 0.0, 0.5)[1], True)
        self.assertEqual(evaluate.judge(o, [box(260, 100, 100, 100)], self.size, 0.2, 0.5)[1:], (False, True, True))

    def test_tolerance_is_half_a_pixel(self):
        o = output(500, 300, 0.512)
        self.assertTrue(evaluate.judge(o, [box(249.6, 100, 50, 50)], self.size, 0.0, 0.5)[1])
        self.assertFalse(evaluate.judge(o, [box(249.4, 100, 50, 50)], self.size, 0.0, 0.5)[1])

    def test_faces_too_far_apart_do_not_fit(self):
        # Union x 10..990 is wider than 500: no placement keeps both; the largest is whole.
        faces = [box(10, 100, 80, 80), box(600, 200, 120, 120)]
        verdict = evaluate.judge(output(500, 300, 0.512), faces, self.size, 0.0, 0.5)
        self.assertEqual(verdict, (False, False, True, False))

    def test_padding_is_clipped_to_the_photo(self):
        # A face touching the left edge: its padding is outside the photo and does not count.
        fits, inside, _, _ = evaluate.judge(output(250, 300, 0.512), [box(0, 250, 100, 100)], self.size, 0.5, 0.5)
        self.assertEqual((fits, inside), (True, True))

    def test_rotated_footprint(self):
        # 256x128 output at scale 1 turned 90 degrees: in the source the footprint is 128 wide and
        # 256 tall about (500, 300), i.e. x 436..564, y 172..428.
        o = output(500, 300, 1.0, angle=90, width=256, height=128)
        self.assertTrue(evaluate.judge(o, [box(440, 180, 120, 240)], self.size, 0.0, 0.5)[1])
        self.assertFalse(evaluate.judge(o, [box(380, 280, 240, 40)], self.size, 0.0, 0.5)[1])
        self.assertFalse(evaluate.judge(o, [box(380, 280, 240, 40)], self.size, 0.0, 0.5)[0])
        # 30 degrees: a box at the centre small enough for the inscribed circle is inside.
        o30 = output(500, 300, 1.0, angle=30, width=256, height=128)
        self.assertTrue(evaluate.judge(o30, [box(460, 260, 80, 80)], self.size, 0.0, 0.5)[1])
        self.assertFalse(evaluate.judge(o30, [box(380, 260, 240, 80)], self.size, 0.0, 0.5)[1])

    def test_truth_is_inside_the_displayed_photos(self):
        import json

        with open(os.path.join(HERE, "truth.json")) as f:
            truth = json.load(f)
        with open(os.path.join(HERE, "layout.json")) as f:
            layout = json.load(f)
        self.assertEqual(sorted(truth), sorted(layout))
        self.assertEqual(sorted(truth), sorted(os.listdir(os.path.join(HERE, "images"))))
        for name, boxes in truth.items():
            w, h = layout[name]["displayed"]
            for b in boxes:
                self.assertTrue(0 <= b["x"] and b["x"] + b["width"] <= w and 0 <= b["y"] and b["y"] + b["height"] <= h, name)


if __name__ == "__main__":
    unittest.main()
