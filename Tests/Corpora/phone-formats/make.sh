#!/usr/bin/env bash
# Makes the phone-format corpus from the reference PNGs beside this script, with Debian's
# encoders (libavif-bin, libheif-examples, webp, libjxl-tools; scripts/install-deps.sh), and
# the expected pixels of the lossy files with each encoder's own decoder. Re-run after changing
# a reference; the files are checked in, so the tests need none of these tools.
#   ref-rgb.png     192x128 RGB, a piece of samples/kite.jpg (asymmetric: orientation shows)
#   ref-rgba.png    the same with alpha falling from 255 (left) to 30 (right)
#   ref-frame2.png  ref-rgb.png mirrored left to right (an animation's second frame)
set -euo pipefail
cd "$(dirname "$0")"
icc=/usr/share/color/icc/ghostscript/srgb.icc
rm -f ./*.avif ./*.heic ./*.webp ./*.jxl expected-*.png

# AVIF (libavif's avifenc); lossless where the pixels are compared with the reference.
avifenc -l --cicp 1/13/0 ref-rgb.png avif-nclx-8bit-lossless.avif >/dev/null
avifenc --min 8 --max 16 --cicp 1/13/6 ref-rgb.png avif-nclx-8bit-lossy.avif >/dev/null
avifenc -l -d 10 --cicp 1/13/0 ref-rgb.png avif-nclx-10bit-lossless.avif >/dev/null
avifenc -l -d 12 --cicp 1/13/0 ref-rgb.png avif-nclx-12bit-lossless.avif >/dev/null
avifenc -l --cicp 1/13/0 ref-rgba.png avif-alpha-lossless.avif >/dev/null
avifenc -l --icc "$icc" ref-rgb.png avif-icc-lossless.avif >/dev/null
avifenc -l --cicp 1/13/0 --irot 1 ref-rgb.png avif-irot1.avif >/dev/null
avifenc -l --cicp 1/13/0 --irot 3 ref-rgb.png avif-irot3.avif >/dev/null
avifenc -l --cicp 1/13/0 --imir 0 ref-rgb.png avif-imir0.avif >/dev/null
avifenc -l --cicp 1/13/0 --imir 1 ref-rgb.png avif-imir1.avif >/dev/null
avifenc -l --cicp 1/13/0 -g 2x2 ref-rgb.png avif-grid-2x2.avif >/dev/null
avifenc -l --cicp 1/13/0 ref-rgb.png ref-frame2.png avif-animated.avif >/dev/null
avifdec avif-nclx-8bit-lossy.avif expected-avif-nclx-8bit-lossy.png >/dev/null

# HEIC (libheif's heif-enc, x265).
heif-enc -q 92 ref-rgb.png -o heic-8bit-lossy.heic >/dev/null
heif-enc -L -p chroma=444 --matrix_coefficients=0 ref-rgb.png -o heic-8bit-lossless.heic >/dev/null
heif-enc -L -p chroma=444 --matrix_coefficients=0 ref-rgba.png -o heic-alpha-lossless.heic >/dev/null
/usr/bin/python3 -c "
from PIL import Image
Image.open('ref-rgb.png').save('/tmp/ref-icc.png', icc_profile=open('$icc','rb').read())"
heif-enc -L -p chroma=444 --matrix_coefficients=0 /tmp/ref-icc.png -o heic-icc-lossless.heic >/dev/null
vips colourspace ref-rgb.png /tmp/ref16.png rgb16
heif-enc -b 10 -L -p chroma=444 --matrix_coefficients=0 /tmp/ref16.png -o heic-10bit-lossless.heic >/dev/null
heif-convert heic-8bit-lossy.heic expected-heic-8bit-lossy.png >/dev/null

# WebP (libwebp's cwebp) and JPEG XL (libjxl's cjxl, which cropjob does not read).
cwebp -quiet -lossless ref-rgba.png -o webp-alpha-lossless.webp
cwebp -quiet -q 90 ref-rgb.png -o webp-lossy.webp
dwebp -quiet webp-lossy.webp -o expected-webp-lossy.png
cjxl -q 100 ref-rgb.png jpegxl-lossless.jxl >/dev/null 2>&1
ls -l ./*.avif ./*.heic ./*.webp ./*.jxl | awk '{print $5, $9}'
