#!/usr/bin/python3
"""Independent oracle for the other-tools corpus (OtherToolsCorpusTests; Tests/Corpora/other-tools).

Pillow decodes each source and LittleCMS (through Pillow's ImageCms) converts it to sRGB from
its embedded ICC profile (perceptual intent, as docs/decoding.md says cropjob converts), after
EXIF orientation; the result is compared with the PNG of cropjob's decode of the same file,
alpha included. Where Pillow reads 16 bits a sample, the oracle keeps the top byte (as libvips'
16-to-8-bit conversion does). A file without a profile is taken as sRGB; a CMYK file without
one is converted through the CMYK profile libvips uses for such files (libvips' cmyk.icm is
not shipped here, so those files are compared with `vips icc_transform` instead: see `vips`).

Usage:
  other_tools_oracle.py make CORPUS WORK   derive the files made from the corpus (see DERIVED)
  other_tools_oracle.py compare CASES.json prints a JSON list: per case the mean and max
                                           absolute difference of the colour channels
                                           (premultiplied by alpha) and the max absolute
                                           difference of alpha (0...255)
CASES.json: [{"name", "source", "actual", "oracle": "pillow" | "vips"}]
"""

import io
import json
import os
import struct
import subprocess
import sys

import numpy as np
from PIL import Image, ImageCms, ImageOps

SRGB = ImageCms.createProfile("sRGB")

# Files made from corpus files by other tools (vips' CLI, Pillow), each for one defect:
# name -> (how, inputs). Made at test time so that the corpus holds only upstream files.
DERIVED = {
    # Issue 40 point 1: a 16-bit grey+alpha PNG tagged with a grey profile (PngSuite's
    # basn4a16 and Pillow's sGrey-v2-nano.icc, written by libvips' pngsave).
    "grey16-alpha-sgrey.png": ("vips-profile", "pngsuite/basn4a16.png", "other-tools/pillow/sGrey-v2-nano.icc"),
    # The same for 16-bit RGBA tagged Display P3 (libvips' p3.icm).
    "rgba16-p3.png": ("vips-profile", "pngsuite/basn6a16.png", "other-tools/libvips/p3.icm"),
    # Issue 40 point 3: an 8-bit RGB PNG tagged with a P3 profile whose header names a D65
    # PCS illuminant (as some ProPhoto profiles do): libpng warns "PCS illuminant is not D50".
    "p3-illuminant-d65.png": ("pillow-d65-header", "pngsuite/basn2c08.png", "other-tools/libvips/p3.icm"),
}


def make(corpus, work):
    os.makedirs(work, exist_ok=True)
    for name, (how, image, profile) in DERIVED.items():
        out = os.path.join(work, name)
        source = os.path.join(corpus, image)
        icc = os.path.join(corpus, profile)
        if how == "vips-profile":
            subprocess.run(["vips", "copy", source, out + "[profile=%s]" % icc], check=True)
        else:
            data = bytearray(open(icc, "rb").read())

            def s15(x):
                return struct.pack(">i", round(x * 65536))

            data[68:80] = s15(0.9505) + s15(1.0) + s15(1.0890)
            data[84:100] = bytes(16)  # no profile ID: the header changed
            Image.open(source).convert("RGB").save(out, icc_profile=bytes(data))
    print(json.dumps(sorted(DERIVED)))


def top_byte(im):
    """A 16-bit Pillow image ("I;16*", "I") as 8-bit "L": the top byte, as libvips does."""
    a = np.asarray(im, dtype=np.uint32)
    return Image.fromarray((a >> 8).astype(np.uint8), "L")


def expected_pillow(path):
    im = Image.open(path)
    im.seek(0)
    im = ImageOps.exif_transpose(im)
    icc = im.info.get("icc_profile")
    alpha = None
    if im.mode in ("I;16", "I;16B", "I;16L", "I"):
        im = top_byte(im)
    if im.mode in ("LA", "RGBA", "PA", "P", "1"):
        if im.mode in ("P", "1", "PA"):
            im = im.convert("RGBA")
        alpha = np.asarray(im.getchannel("A"))
        im = im.convert("L" if im.mode == "LA" else "RGB")
    if icc:
        source = ImageCms.ImageCmsProfile(io.BytesIO(icc))
        if source.profile.xcolor_space.strip() == "GRAY" and im.mode == "RGB":
            # Pillow reads a 16-bit grey+alpha PNG as RGBA with equal channels.
            im = im.convert("L")
        im = ImageCms.profileToProfile(im, source, SRGB, renderingIntent=0, outputMode="RGB")
    rgb = np.asarray(im.convert("RGB"), dtype=np.int32)
    return rgb, alpha


def expected_vips(path, work):
    out = os.path.join(work, os.path.basename(path) + ".vips-oracle.png")
    subprocess.run(["vips", "icc_transform", path, out, "srgb", "--embedded", "--intent", "perceptual"], check=True)
    im = Image.open(out)
    alpha = np.asarray(im.getchannel("A")) if im.mode == "RGBA" else None
    return np.asarray(im.convert("RGB"), dtype=np.int32), alpha


def compare(cases_path):
    cases = json.load(open(cases_path))
    results = []
    for case in cases:
        work = os.path.dirname(case["actual"])
        if case.get("oracle") == "vips":
            rgb, alpha = expected_vips(case["source"], work)
        else:
            rgb, alpha = expected_pillow(case["source"])
        got = Image.open(case["actual"])
        got_alpha = np.asarray(got.getchannel("A"), dtype=np.int32) if got.mode == "RGBA" else None
        got_rgb = np.asarray(got.convert("RGB"), dtype=np.int32)
        result = {"name": case["name"]}
        if got_rgb.shape != rgb.shape:
            result["error"] = "size %s, expected %s" % (got_rgb.shape[:2], rgb.shape[:2])
        else:
            expected_alpha = alpha if alpha is not None else np.full(rgb.shape[:2], 255)
            actual_alpha = got_alpha if got_alpha is not None else np.full(rgb.shape[:2], 255)
            # Colour compared premultiplied: a transparent pixel's colour is not seen.
            ea = expected_alpha.astype(np.float64)[..., None] / 255
            aa = actual_alpha.astype(np.float64)[..., None] / 255
            d = np.abs(got_rgb * aa - rgb * ea)
            result["mean"] = float(d.mean())
            result["p999"] = float(np.percentile(d, 99.9))
            result["max"] = float(d.max())
            result["alpha_max"] = int(np.abs(actual_alpha.astype(np.int32) - expected_alpha.astype(np.int32)).max())
            result["alpha_mean_expected"] = float(np.mean(expected_alpha))
            result["alpha_mean_actual"] = float(np.mean(actual_alpha))
        results.append(result)
    print(json.dumps(results))


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(sys.argv[2], sys.argv[3])
    else:
        compare(sys.argv[2])
