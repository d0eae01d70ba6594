#!/usr/bin/env python3
"""The face detector's own CPU time per photo (issue 23: ≤ 60 ms per photo at 512 px).

  faces_cost.py NAME SIDE REPEATS PHOTO...   -> results/NAME.json, and one line per photo

Each photo is made into the detector's input the way cropjob makes it (oriented, shrunk so that
its long side is SIDE, never enlarged; 8-bit BGR, alpha dropped), here by pyvips, outside the
timing. Then libfacedetection's `facedetect_cnn` (the library cropjob loads, by the same entry
point, one OpenMP thread as cropjob sets) runs REPEATS times on it, each call timed by the
process's CPU clock (user + sys of every thread); the photo's figure is the median. The first
call of the process, which sets the weights up, runs on a blank image before any timing.
"""
import ctypes
import json
import os
import statistics
import sys
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")   # before the library loads its OpenMP runtime
import numpy as np  # noqa: E402
import pyvips  # noqa: E402

LIBRARY = os.environ.get("CROPJOB_FACES_LIBRARY") or \
    "/usr/local/lib/cropjob/yuface-2023.5.1/yuface/libfacedetection.so"
RESULT_BYTES = 0x9000
W = os.environ.get("BENCH_WORK") or os.path.join(os.environ.get("TMPDIR", "/tmp"), "cropjob-bench")


def bgr_copy(path, side):
    im = pyvips.Image.new_from_file(path).autorot()
    long_side = max(im.width, im.height)
    if long_side > side:
        im = im.resize(side / long_side, kernel="linear")
    if im.hasalpha():
        im = im.extract_band(0, n=im.bands - 1)
    if im.bands == 1:
        im = im.bandjoin([im, im])
    im = im.cast("uchar")
    a = np.ndarray(buffer=im.write_to_memory(), dtype=np.uint8, shape=(im.height, im.width, 3))
    return np.ascontiguousarray(a[:, :, ::-1])


def main():
    name, side, repeats, photos = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
    lib = ctypes.CDLL(LIBRARY)
    detect = lib["_Z14facedetect_cnnPhS_iii"]
    detect.restype = ctypes.POINTER(ctypes.c_int)
    detect.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_int]
    omp = lib["omp_set_num_threads"] if hasattr(lib, "omp_set_num_threads") else None
    if omp:
        omp(1)
    result = ctypes.create_string_buffer(RESULT_BYTES)
    blank = np.zeros((32, 32, 3), np.uint8)
    detect(result, blank.ctypes.data, 32, 32, 96)
    recs = []
    for path in photos:
        bgr = bgr_copy(path, side)
        h, w = bgr.shape[:2]
        times, faces = [], 0
        for _ in range(repeats):
            t0 = time.process_time()
            r = detect(result, bgr.ctypes.data, w, h, 3 * w)
            times.append(time.process_time() - t0)
            faces = r[0]
        ms = 1000 * statistics.median(times)
        recs.append({"photo": os.path.basename(path), "width": w, "height": h, "cpu_ms": ms, "boxes": faces})
        print(f"  {os.path.basename(path):32s} {w:5d} x {h:<5d} {ms:7.1f} ms CPU  "
              f"{ms / (w * h / 1e6):6.1f} ms/MP  {faces} boxes (all scores)", flush=True)
    ms = [r["cpu_ms"] for r in recs]
    mp = [r["cpu_ms"] / (r["width"] * r["height"] / 1e6) for r in recs]
    print(f"  {name}: {len(recs)} photos at {side} px: median {statistics.median(ms):.1f} ms, "
          f"max {max(ms):.1f} ms CPU per photo; {statistics.median(mp):.0f} ms per megapixel of copy")
    os.makedirs(os.path.join(W, "results"), exist_ok=True)
    meta = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "side": side, "repeats": repeats,
            "load": open("/proc/loadavg").read().split()[0], "library": LIBRARY}
    json.dump({"meta": meta, "records": recs}, open(os.path.join(W, "results", name + ".json"), "w"), indent=1)


if __name__ == "__main__":
    main()
