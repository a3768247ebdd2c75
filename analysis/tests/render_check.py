"""Checks pictures made by analysis/render (run with /usr/bin/python3: numpy, matplotlib).

    render_check.py DIR/PREFIX.render.json [--moves BODY] [--marked-frame F | --no-marks]

For every picture: it is not blank (several colours); around the spot where the camera
projects each body's centre, the body's own colour dominates (so the body is drawn where
the camera should put it) unless another body covers it there; with --moves, that body
is drawn at least 5 pixels away from where it was in the first picture in the last one. With --marked-frame, exactly that picture has
intersection red in it; with --no-marks, none has. Exits 1 if a check fails.
"""
import json
import os
import sys

import numpy as np
from matplotlib import image

RED = np.array([0.9, 0.0, 0.0])
failures = []


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what, flush=True)
    if not ok:
        failures.append(what)


def hue_matches(pixels, colour):
    """Fraction of pixels whose colour direction (shading scales brightness) is that of `colour`."""
    c = np.asarray(colour) / np.linalg.norm(colour)
    p = pixels / np.maximum(np.linalg.norm(pixels, axis=1, keepdims=True), 1e-9)
    return float(np.mean(p @ c > 0.995))


def main():
    record_path = sys.argv[1]
    marked_frame = int(sys.argv[sys.argv.index("--marked-frame") + 1]) if "--marked-frame" in sys.argv else None
    if "--no-marks" in sys.argv:
        marked_frame = -1  # no picture is of frame -1: red in none
    moves = sys.argv[sys.argv.index("--moves") + 1] if "--moves" in sys.argv else None
    record = json.load(open(record_path))
    folder = os.path.dirname(record_path)
    colours = record["colours"]
    previous = {}
    for pic in record["pictures"]:
        img = image.imread(os.path.join(folder, pic["file"]))[:, :, :3].astype(float)
        h, w = img.shape[:2]
        tag = f"{pic['file']}:"
        check([w, h] == record["size"], f"{tag} {w}x{h} pixels")
        distinct = len(np.unique((img * 255).astype(np.uint8).reshape(-1, 3), axis=0))
        check(distinct > 20, f"{tag} not blank ({distinct} distinct colours)")
        drawn = 0
        for name, (x, y) in pic["centres"].items():
            xi, yi = int(round(x)), int(round(y))
            inside = 0 <= xi < w and 0 <= yi < h
            check(inside, f"{tag} {name}'s centre ({xi}, {yi}) is in the picture")
            if not inside:
                continue
            window = img[max(0, yi - 3):yi + 4, max(0, xi - 3):xi + 4].reshape(-1, 3)
            own = hue_matches(window, colours[name])
            other = max([hue_matches(window, c) for n, c in colours.items() if n != name] + [0.0])
            # Marked triangles are drawn over everything: where they cover a centre, red stands for the body.
            marks = hue_matches(window, RED) if pic["marked_vertices"] else 0.0
            check(own > 0.5 or other > 0.5 or marks > 0.5,
                  f"{tag} a body is drawn at {name}'s centre (own colour {own:.0%}, another body's {other:.0%}"
                  + (f", intersection red {marks:.0%})" if pic["marked_vertices"] else ")"))
            drawn += own > 0.5 or marks > 0.5
            previous.setdefault(name, []).append((xi, yi))
        check(drawn >= 1, f"{tag} {drawn} bodies visible at their own centres (or covered by the marks)")
        red = int(np.sum(np.all(np.abs(img - RED) < 0.25, axis=1) if img.ndim == 2 else
                         np.all(np.abs(img - RED) < 0.25, axis=2)))
        if marked_frame is not None:
            if pic["frame"] == marked_frame:
                check(red > 30 and pic["marked_vertices"] > 0, f"{tag} intersection drawn in red ({red} pixels)")
            else:
                check(red == 0, f"{tag} no intersection red ({red} pixels)")
    if moves:
        first, last = np.array(previous[moves][0]), np.array(previous[moves][-1])
        check(np.linalg.norm(last - first) >= 5, f"{moves} moved on screen from {tuple(first)} to {tuple(last)}")
    if failures:
        print(f"{len(failures)} check(s) failed")
        sys.exit(1)
    print("all checks passed")


main()
