#!/usr/bin/python3
"""Writes the animated test fixtures beside this script (Pillow, python3-pil; licence: generated).

pan.gif   96x64, 4 frames, delays 100/200/50/150 ms, loop 3 (NETSCAPE count), no transparency
pan.webp  the same frames, lossless, delays 100/200/50/150 ms, loop 2
broken-frame3.gif  pan.gif with the image data of its third frame garbled (LZW codes all ones)

Each frame is a smooth gradient (its direction differs per frame) with a bright square that moves,
so that a crop and a resize of each frame can be told apart from any other frame's.
Re-running it gives the same bytes with the same Pillow (9.4.0, Debian 12).
"""
import os

from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
W, H = 96, 64
DELAYS = [100, 200, 50, 150]
SQUARES = [(8, 8, (255, 40, 40)), (40, 20, (40, 255, 40)), (64, 36, (40, 40, 255)), (20, 40, (255, 255, 40))]


def frame(i):
    img = Image.new("RGB", (W, H))
    px = img.load()
    for y in range(H):
        for x in range(W):
            u, v = x / (W - 1), y / (H - 1)
            a = [u, v, 1 - u, 1 - v][i]
            b = [v, 1 - u, 1 - v, u][i]
            px[x, y] = (int(40 + 180 * a), int(40 + 150 * b), int(200 - 120 * a))
    sx, sy, colour = SQUARES[i]
    for y in range(sy, sy + 16):
        for x in range(sx, sx + 16):
            px[x, y] = colour
    return img


frames = [frame(i) for i in range(4)]
# GIF: one palette for all frames (adaptive over the four), full frames, each replacing the last.
strip = Image.new("RGB", (W, H * 4))
for i, f in enumerate(frames):
    strip.paste(f, (0, H * i))
palette = strip.quantize(colors=255, dither=Image.Dither.NONE)
gif_frames = [f.quantize(palette=palette, dither=Image.Dither.NONE) for f in frames]
gif = os.path.join(HERE, "pan.gif")
gif_frames[0].save(
    gif, save_all=True, append_images=gif_frames[1:], duration=DELAYS, loop=3, disposal=1, optimize=False
)
frames[0].save(
    os.path.join(HERE, "pan.webp"), save_all=True, append_images=frames[1:], duration=DELAYS, loop=2,
    lossless=True, method=4,
)
# Frame 3's first LZW sub-block overwritten with 0xFF: the file's structure holds (4 frames in the
# header, frames 1, 2 and 4 decode), frame 3's image data does not.
data = bytearray(open(gif, "rb").read())
starts = [i for i in range(10, len(data) - 10) if data[i] == 0x2C and data[i - 1] == 0x00 and data[i - 8] == 0x21]
assert len(starts) == 4, starts
descriptor = starts[2]
packed = data[descriptor + 9]
local_table = 3 * 2 ** ((packed & 7) + 1) if packed & 0x80 else 0
lzw = descriptor + 10 + local_table  # LZW minimum code size, then the first sub-block's length
for k in range(lzw + 2, lzw + 2 + data[lzw + 1]):
    data[k] = 0xFF
open(os.path.join(HERE, "broken-frame3.gif"), "wb").write(bytes(data))
