#!/usr/bin/python3
"""Builds the region fixtures of Tests/Corpora/regions (README.md there) from samples/astronaut.jpg.

The displayed picture D is the astronaut's top 512x400 rows at half size (256x200). The face box,
checked by hand on a 10-pixel grid over the 512x512 sample (skin from cheek to cheek, hairline to
chin: x 185..273, y 77..172), is (92.5, 38.5, 44, 47.5) in D. For each EXIF orientation 1-8 the
stored pixels S are D turned back, so that a viewer applying the orientation shows D (checked here
with Pillow's exif_transpose), and exiftool writes:

  o<N>-mwg.jpg      MWG region, centre-based, normalised to D (the displayed frame),
                    AppliedToDimensions = D's size
  o<N>-stored.jpg   (N = 5..8) MWG region normalised to S, AppliedToDimensions = S's size (the
                    stored frame: the box's corners go through the same turn as the pixels)
  o<N>-mp.jpg       Microsoft MP:RegionInfo rectangle, top-left based, normalised to D
plus
  attributes.jpg    MWG written with RDF attributes (no parseType), a Pet region and a point
  damaged.jpg       o6-mwg.jpg with one end tag of its XMP packet changed (</rdf:li> -> </rdf:lx>)

Needs python3-pil, python3-numpy and exiftool. Run from anywhere: Tests/Corpora/regions/make.py
"""
import json
import pathlib
import subprocess
import tempfile

import numpy as np
from PIL import Image, ImageOps

HERE = pathlib.Path(__file__).resolve().parent
SAMPLE = HERE.parent.parent.parent / "samples" / "astronaut.jpg"
FACE = (92.5, 38.5, 44.0, 47.5)  # x, y, w, h in the displayed 256x200 picture

# Stored pixels from displayed ones, per orientation (the inverse of what a viewer applies).
TO_STORED = {
    1: lambda a: a,
    2: lambda a: a[:, ::-1],
    3: lambda a: a[::-1, ::-1],
    4: lambda a: a[::-1, :],
    5: lambda a: np.swapaxes(a, 0, 1),
    6: lambda a: np.rot90(a, 1),  # displayed = stored turned 90 deg clockwise
    7: lambda a: np.swapaxes(a, 0, 1)[::-1, ::-1],
    8: lambda a: np.rot90(a, -1),  # displayed = stored turned 90 deg anticlockwise
}


def exiftool(*args):
    subprocess.run(["exiftool", "-q", "-overwrite_original", *args], check=True)


def stored_box(orientation, size):
    """The face box in the stored frame: a mask turned like the pixels, then its bounding box."""
    w, h = size
    scale = 8  # the box has half-pixel edges: work on a grid 8x finer
    mask = np.zeros((h * scale, w * scale), dtype=bool)
    x, y, bw, bh = (round(v * scale) for v in FACE)
    mask[y : y + bh, x : x + bw] = True
    stored = TO_STORED[orientation](mask)
    ys, xs = np.nonzero(stored)
    sh, sw = stored.shape
    return (xs.min() / sw, ys.min() / sh, (xs.max() + 1 - xs.min()) / sw, (ys.max() + 1 - ys.min()) / sh)


def mwg(area, applied):
    x, y, w, h = area
    return (
        "-XMP-mwg-rs:RegionInfo={AppliedToDimensions={W=%d,H=%d,Unit=pixel},"
        "RegionList=[{Area={X=%.6f,Y=%.6f,W=%.6f,H=%.6f,Unit=normalized},Name=Eileen Collins,Type=Face}]}"
        % (applied[0], applied[1], x + w / 2, y + h / 2, w, h)
    )


def main():
    full = Image.open(SAMPLE).convert("RGB").crop((0, 0, 512, 400))
    displayed = full.resize((256, 200), Image.LANCZOS)
    d = np.asarray(displayed)
    dw, dh = displayed.size
    norm = (FACE[0] / dw, FACE[1] / dh, FACE[2] / dw, FACE[3] / dh)
    expected = {}
    for n in range(1, 9):
        s = np.ascontiguousarray(TO_STORED[n](d))
        stored = Image.fromarray(s)
        for kind in ["mwg", "mp"] + (["stored"] if n >= 5 else []):
            path = HERE / f"o{n}-{kind}.jpg"
            stored.save(path, quality=90)
            args = [f"-IFD0:Orientation#={n}"]
            if kind == "mwg":
                args.append(mwg(norm, (dw, dh)))
            elif kind == "stored":
                args.append(mwg(stored_box(n, (dw, dh)), stored.size))
            else:
                rect = "|, ".join("%.6f" % v for v in norm)
                args.append("-XMP-MP:RegionInfoMP={Regions=[{Rectangle=%s,PersonDisplayName=Eileen Collins}]}" % rect)
            exiftool(*args, str(path))
            shown = ImageOps.exif_transpose(Image.open(path))
            assert shown.size == (dw, dh), (path, shown.size)
            diff = np.abs(np.asarray(shown, dtype=int) - d.astype(int)).mean()
            assert diff < 3, (path, diff)  # the same picture, up to JPEG noise
            expected[path.name] = list(FACE)
    # RDF attributes instead of elements, a Pet region and a point (Focus).
    packet = f"""<?xpacket begin='\ufeff' id='W5M0MpCehiHzreSzNTczkc9d'?>
<x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'>
<rdf:Description rdf:about='' xmlns:mwg-rs='http://www.metadataworkinggroup.com/schemas/regions/'
 xmlns:stArea='http://ns.adobe.com/xmp/sType/Area#' xmlns:stDim='http://ns.adobe.com/xap/1.0/sType/Dimensions#'>
<mwg-rs:Regions><rdf:Description>
<mwg-rs:AppliedToDimensions stDim:w='{dw}' stDim:h='{dh}' stDim:unit='pixel'/>
<mwg-rs:RegionList><rdf:Bag>
<rdf:li><rdf:Description mwg-rs:Name='Eileen &amp; co' mwg-rs:Type='Face'>
<mwg-rs:Area stArea:x='{norm[0] + norm[2] / 2:.6f}' stArea:y='{norm[1] + norm[3] / 2:.6f}' stArea:w='{norm[2]:.6f}' stArea:h='{norm[3]:.6f}' stArea:unit='normalized'/>
</rdf:Description></rdf:li>
<rdf:li mwg-rs:Type='Pet'><mwg-rs:Area><rdf:Description stArea:x='0.5' stArea:y='0.5' stArea:w='0.25' stArea:h='0.5' stArea:unit='normalized'/></mwg-rs:Area></rdf:li>
<rdf:li rdf:parseType='Resource'><mwg-rs:Type>Focus</mwg-rs:Type><mwg-rs:Area rdf:parseType='Resource'><stArea:x>0.75</stArea:x><stArea:y>0.25</stArea:y><stArea:unit>normalized</stArea:unit></mwg-rs:Area></rdf:li>
</rdf:Bag></mwg-rs:RegionList>
</rdf:Description></mwg-rs:Regions>
</rdf:Description></rdf:RDF></x:xmpmeta>
<?xpacket end='w'?>"""
    path = HERE / "attributes.jpg"
    displayed.save(path, quality=90)
    with tempfile.NamedTemporaryFile("w", suffix=".xmp", encoding="utf-8") as f:
        f.write(packet)
        f.flush()
        exiftool(f"-XMP<={f.name}", str(path))
    # A damaged packet: one end tag renamed, same length, inside the JPEG's APP1 segment.
    data = (HERE / "o6-mwg.jpg").read_bytes()
    assert data.count(b"</rdf:li>") == 1
    (HERE / "damaged.jpg").write_bytes(data.replace(b"</rdf:li>", b"</rdf:lx>"))
    (HERE / "expected.json").write_text(json.dumps({"face": list(FACE), "size": [dw, dh]}, indent=1) + "\n")


if __name__ == "__main__":
    main()
