"""Offscreen pictures of an eipc trajectory or a dataset (run by analysis/render under pvbatch; docs/render.md).

Draws the bodies' surfaces (one colour per body), the ground plane, a caption with the
time, and, when an `eipc certify --json` report is given (or RUN.certify.json lies beside
RUN.h5), the triangles and vertices it names as intersecting, in red with red dots.
A dataset (anything `eipc certify` reads that is not a trajectory: a frame file, a .pvd
series, a directory of frames) is first converted by `eipc convert` (certify's own
readers; the certificate's file indices become the trajectory's rows) and drawn the same way.
The camera is framed once on the bodies over the whole run, so pictures of different
times of one run line up. Writes DIR/<prefix>_t<time>.png per chosen time (_frame<k>.png
for a dataset without times), optionally a
movie of every frame (MP4 or GIF, made with ffmpeg), and DIR/<prefix>.render.json saying
where each body's centre landed in each picture (the test checks the pixels there).
"""
import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

import h5py
import numpy as np
from vtkmodules.util.numpy_support import numpy_to_vtk, numpy_to_vtkIdTypeArray
from vtkmodules.vtkCommonCore import vtkPoints
from vtkmodules.vtkCommonDataModel import vtkCellArray, vtkPolyData
from vtkmodules.vtkFiltersSources import vtkPlaneSource, vtkSphereSource
from vtkmodules.vtkFiltersCore import vtkAppendPolyData, vtkGlyph3D
from vtkmodules.vtkIOImage import vtkPNGWriter
from vtkmodules.vtkRenderingCore import (vtkActor, vtkCoordinate, vtkPolyDataMapper, vtkRenderer,
                                         vtkRenderWindow, vtkTextActor, vtkWindowToImageFilter)
import vtkmodules.vtkRenderingOpenGL2  # noqa: F401  (registers the OpenGL backend)
import vtkmodules.vtkRenderingFreeType  # noqa: F401  (text)

# Distinct, saturated hues (no red: red marks intersections), in body order.
PALETTE = [(0.12, 0.47, 0.71), (1.0, 0.60, 0.05), (0.17, 0.63, 0.17), (0.58, 0.40, 0.74),
           (0.09, 0.75, 0.81), (0.74, 0.74, 0.13), (0.55, 0.34, 0.29), (0.89, 0.47, 0.76)]
BACKGROUND = (1.0, 1.0, 1.0)
GROUND = (0.80, 0.80, 0.78)
INTERSECTION = (0.9, 0.0, 0.0)


def parse_args(argv):
    p = argparse.ArgumentParser(prog="analysis/render", description=__doc__.split("\n")[0])
    p.add_argument("trajectory", help="RUN.h5 (docs/trajectory-format.md), or a dataset eipc certify reads: frame "
                   "file (.obj .ply .stl .vtk .vtu .vtp), .pvd series or directory of frames")
    p.add_argument("--out", required=True, help="output directory")
    p.add_argument("--times", default="", help="comma-separated times [s]; the nearest stored frame is drawn "
                   "(default: first and last frame)")
    p.add_argument("--notes", default="", help="comma-separated words, one per --times entry, shown after its time "
                   "(e.g. grasp,lift,hold)")
    p.add_argument("--movie", default="", help="also a movie of the whole run: FILE.mp4 or FILE.gif (in --out)")
    p.add_argument("--fps", type=float, default=20.0, help="movie frames per second (default 20)")
    p.add_argument("--movie-every", type=int, default=0, help="movie uses every k-th frame (default: <= 200 frames)")
    p.add_argument("--certificate", default="", help="`eipc certify --json` report (default: RUN.certify.json, or for "
                   "a dataset NAME.certify.json beside it, if present)")
    p.add_argument("--bodies", choices=["objects", "components"], default=None,
                   help="datasets: how frames split into bodies, as for eipc certify (default objects)")
    p.add_argument("--eipc", default="", help="eipc binary that converts datasets (default: $EIPC, else the "
                   "repository's build/bin/eipc, else eipc on PATH)")
    p.add_argument("--prefix", default="", help="file name prefix (default: the trajectory's name)")
    p.add_argument("--label", default="", help="caption line (default: scenario and embedding)")
    p.add_argument("--size", default="800x600", help="picture size WxH in pixels (default 800x600)")
    p.add_argument("--view", default="3,-4,2", help="camera direction from the bodies' centre, x,y,z (z is up)")
    p.add_argument("--zoom", type=float, default=1.0, help="camera zoom after framing (default 1)")
    p.add_argument("--focus", default="", help="comma-separated body names to frame (default: every body)")
    p.add_argument("--fit-times", default="", help="T0,T1: frame the bodies as they are between these times "
                   "(default: the whole run)")
    return p.parse_args(argv)


def fail(message):
    print(f"error: {message}", file=sys.stderr)
    sys.exit(2)


TRAJECTORY_EXTENSIONS = (".h5", ".hdf5")


def is_dataset(path):
    """What eipc convert reads (frames, series, directories); an HDF5 file is a trajectory."""
    return os.path.isdir(path) or os.path.splitext(path)[1].lower() not in TRAJECTORY_EXTENSIONS


def eipc_binary(option):
    if option:
        return option
    if os.environ.get("EIPC"):
        return os.environ["EIPC"]
    built = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build", "bin", "eipc")
    return built if os.access(built, os.X_OK) else (shutil.which("eipc") or "")


def convert_dataset(path, bodies, certificate, eipc, folder):
    """Converts a dataset with `eipc convert`: (trajectory path, certificate path or "", has_times)."""
    if not eipc:
        print("error: drawing a dataset needs the eipc binary (build it, or give --eipc or $EIPC)", file=sys.stderr)
        sys.exit(4)
    out = os.path.join(folder, "dataset.h5")
    cmd = [eipc, "convert", path, "--out", out, "--json"]
    cmd += ["--bodies", bodies] if bodies else []
    cmd += ["--certificate", certificate] if certificate else []
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stderr)
        sys.exit(2 if done.returncode == 2 else 4)
    summary = json.loads(done.stdout)
    for note in summary["notes"]:
        print(f"note: {note}")
    return out, summary["certificate"] or "", summary["has_times"]


class Trajectory:
    def __init__(self, path):
        try:
            self.file = h5py.File(path, "r")
        except OSError as e:
            fail(f"{path}: cannot open as HDF5 ({e})")
        f = self.file
        if f.attrs.get("format") != "eipc-trajectory":
            fail(f"{path}: format: not an eipc trajectory")
        self.names = [str(n) for n in f.attrs["body_names"]]
        self.embeddings = [str(e) for e in f.attrs["body_embeddings"]]
        self.scenario = str(f.attrs["scenario"])
        self.times = f["frames/time"][:]
        self.ground = float(f.attrs["ground_height"]) if "ground_height" in f.attrs else None
        self.triangles = [f[f"bodies/{n}/surface_triangles"][:] for n in self.names]

    def vertex_count(self, body):
        return self.file[f"bodies/{self.names[body]}/positions"].shape[1]

    def positions(self, frame):
        return [self.file[f"bodies/{n}/positions"][frame] for n in self.names]

    def bounds(self, bodies, first, last):
        """Bounds of the named bodies' surface vertices over frames first..last: [[xmin,ymin,zmin],[xmax,...]]."""
        lo, hi = np.full(3, np.inf), np.full(3, -np.inf)
        for i, n in enumerate(self.names):
            if n not in bodies or len(self.triangles[i]) == 0:
                continue
            used = np.unique(self.triangles[i])
            x = self.file[f"bodies/{n}/positions"]
            for start in range(first, last + 1, 64):
                block = x[start:min(start + 64, last + 1)][:, used, :]
                lo = np.minimum(lo, block.min(axis=(0, 1)))
                hi = np.maximum(hi, block.max(axis=(0, 1)))
        return np.array([lo, hi])


def certificate_marks(path, traj):
    """{frame: {body index: set of surface-triangle rows}} and {frame: {body index: set of vertices}}."""
    try:
        with open(path) as fh:
            report = json.load(fh)
    except (OSError, ValueError) as e:
        fail(f"{path}: cannot read the certificate ({e})")
    if report.get("format") != "eipc-certify":
        fail(f"{path}: format: not an `eipc certify --json` report")
    index = {n: i for i, n in enumerate(traj.names)}
    tris, verts = {}, {}

    def add(table, frame, body, items):
        if body not in index:
            fail(f"{path}: unknown body '{body}' (bodies: {', '.join(traj.names)})")
        i = index[body]
        limit = len(traj.triangles[i]) if table is tris else traj.vertex_count(i)
        if not 0 <= frame < len(traj.times) or any(not 0 <= int(k) < limit for k in items):
            fail(f"{path}: frame {frame} or {'triangle' if table is tris else 'vertex'} {items} of body "
                 f"'{body}' is out of range")
        table.setdefault(frame, {}).setdefault(i, set()).update(int(k) for k in items)

    for fr in report["frames"]:
        for v in fr.get("examples", []):
            k = fr["frame"]
            if v["kind"] == "triangle_pair":
                add(tris, k, v["body_a"], [v["triangle_a"]])
                add(tris, k, v["body_b"], [v["triangle_b"]])
            elif v["kind"] == "degenerate_triangle":
                add(tris, k, v["body"], [v["triangle"]])
            elif "vertex" in v:
                add(verts, k, v["body"], [v["vertex"]])
    for m in report.get("motions", []):
        for p in m.get("examples", []):
            if p.get("result") != "collision":
                continue
            for k in (m["from"], m["to"]):
                a = p.get("vertex_a", p.get("edge_a"))
                add(verts, k, p["body_a"], a if isinstance(a, list) else [a])
                if "body_b" in p:
                    add(verts, k, p["body_b"], p.get("corners_b", p.get("edge_b", [])))
    return tris, verts


def polydata(points, triangles):
    pd = vtkPolyData()
    pts = vtkPoints()
    pts.SetData(numpy_to_vtk(np.ascontiguousarray(points, dtype=np.float64), deep=True))
    pd.SetPoints(pts)
    cells = vtkCellArray()
    if len(triangles):
        conn = np.ascontiguousarray(triangles, dtype=np.int64).ravel()
        offsets = np.arange(0, conn.size + 1, 3, dtype=np.int64)
        cells.SetData(numpy_to_vtkIdTypeArray(offsets, deep=True), numpy_to_vtkIdTypeArray(conn, deep=True))
    pd.SetPolys(cells)
    return pd


class Scene:
    """One renderer; bodies' geometry is replaced per frame, camera and ground stay."""

    def __init__(self, traj, size, view, zoom, focus, fit_frames, label, clock):
        self.traj = traj
        self.clock = clock  # frame -> caption text of its time
        self.window = vtkRenderWindow()
        self.window.SetOffScreenRendering(1)
        self.window.SetSize(*size)
        self.window.SetMultiSamples(0)
        self.renderer = vtkRenderer()
        self.renderer.SetBackground(*BACKGROUND)
        self.window.AddRenderer(self.renderer)
        self.box = traj.bounds(focus, *fit_frames)
        centre = self.box.mean(axis=0)
        radius = 0.5 * float(np.linalg.norm(self.box[1] - self.box[0]))
        self.dot_radius = 0.012 * radius
        if traj.ground is not None:  # a square of ground around the bodies
            half = 1.6 * radius
            plane = vtkPlaneSource()
            plane.SetOrigin(centre[0] - half, centre[1] - half, traj.ground)
            plane.SetPoint1(centre[0] + half, centre[1] - half, traj.ground)
            plane.SetPoint2(centre[0] - half, centre[1] + half, traj.ground)
            self.add_actor(plane.GetOutputPort(), GROUND, ambient=0.5)
        self.bodies = []
        for i in range(len(traj.names)):
            mapper = vtkPolyDataMapper()
            actor = vtkActor()
            actor.SetMapper(mapper)
            colour = PALETTE[i % len(PALETTE)]
            actor.GetProperty().SetColor(*colour)
            actor.GetProperty().SetAmbient(0.35)
            actor.GetProperty().SetDiffuse(0.65)
            self.renderer.AddActor(actor)
            self.bodies.append(mapper)
        self.marks_mapper = vtkPolyDataMapper()
        self.marks_mapper.ScalarVisibilityOff()
        marks_actor = vtkActor()
        marks_actor.SetMapper(self.marks_mapper)
        marks_actor.GetProperty().SetColor(*INTERSECTION)
        marks_actor.GetProperty().SetAmbient(0.6)
        # Intersections are drawn in a layer over the scene, so bodies in front never hide them.
        self.window.SetNumberOfLayers(2)
        overlay = vtkRenderer()
        overlay.SetLayer(1)
        overlay.InteractiveOff()
        overlay.AddActor(marks_actor)
        self.window.AddRenderer(overlay)
        self.caption = vtkTextActor()
        self.caption.GetTextProperty().SetFontSize(max(12, size[1] // 30))
        self.caption.GetTextProperty().SetColor(0.1, 0.1, 0.1)
        self.caption.GetTextProperty().SetVerticalJustificationToTop()
        self.caption.SetPosition(10, size[1] - 10)
        self.renderer.AddActor2D(self.caption)
        self.label = label
        cam = self.renderer.GetActiveCamera()
        direction = np.array(view, dtype=float)
        direction /= np.linalg.norm(direction)
        cam.SetFocalPoint(*centre)
        cam.SetPosition(*(centre + direction * 4 * radius))
        cam.SetViewUp(0, 0, 1)
        cam.SetViewAngle(30)
        self.renderer.ResetCamera(*[float(self.box[s][k]) for k in range(3) for s in (0, 1)])
        cam.Zoom(zoom)
        self.renderer.ResetCameraClippingRange()
        overlay.SetActiveCamera(cam)

    def add_actor(self, port, colour, ambient):
        mapper = vtkPolyDataMapper()
        mapper.SetInputConnection(port)
        actor = vtkActor()
        actor.SetMapper(mapper)
        actor.GetProperty().SetColor(*colour)
        actor.GetProperty().SetAmbient(ambient)
        self.renderer.AddActor(actor)

    def draw(self, frame, marks, note=""):
        """Renders one frame; returns each body's projected centre (pixels from the top left)."""
        tris_marked, verts_marked = marks
        positions = self.traj.positions(frame)
        spots = vtkPoints()
        marked = []
        centres = {}
        size = self.window.GetSize()
        for i, mapper in enumerate(self.bodies):
            tris = self.traj.triangles[i]
            mapper.SetInputData(polydata(positions[i], tris))
            rows = sorted(tris_marked.get(frame, {}).get(i, ()))
            if rows:
                marked.append(polydata(positions[i], tris[rows]))
            for v in sorted(set(tris[rows].ravel().tolist()) | verts_marked.get(frame, {}).get(i, set())):
                spots.InsertNextPoint(*positions[i][v])
            if len(tris):
                c = positions[i][np.unique(tris)].mean(axis=0)
                coord = vtkCoordinate()
                coord.SetCoordinateSystemToWorld()
                coord.SetValue(*c)
                x, y = coord.GetComputedDoubleDisplayValue(self.renderer)
                centres[self.traj.names[i]] = [x, size[1] - y]
        dots = vtkPolyData()
        dots.SetPoints(spots)
        sphere = vtkSphereSource()
        sphere.SetRadius(self.dot_radius)
        glyph = vtkGlyph3D()
        glyph.SetSourceConnection(sphere.GetOutputPort())
        glyph.SetInputData(dots)
        glyph.Update()
        merged = glyph.GetOutput()
        if marked:  # the offending triangles themselves
            append = vtkAppendPolyData()
            append.AddInputData(merged)
            for pd in marked:
                append.AddInputData(pd)
            append.Update()
            merged = append.GetOutput()
        self.marks_mapper.SetInputData(merged)
        count = spots.GetNumberOfPoints()
        text = f"{self.label}\n{self.clock(frame)}" + (f"   {note}" if note else "")
        if count:
            text += f"   intersection: {count} vertices marked"
        self.caption.SetInput(text)
        self.window.Render()
        return centres, count

    def save(self, path):
        grab = vtkWindowToImageFilter()
        grab.SetInput(self.window)
        grab.ReadFrontBufferOff()
        grab.Update()
        writer = vtkPNGWriter()
        writer.SetFileName(path)
        writer.SetInputConnection(grab.GetOutputPort())
        writer.Write()


def make_movie(scene, traj, marks, path, fps, every):
    ffmpeg = shutil.which("ffmpeg")
    if not ffmpeg:
        fail("--movie needs ffmpeg (Debian: apt-get install ffmpeg)")
    frames = list(range(0, len(traj.times), every)) + ([len(traj.times) - 1] if (len(traj.times) - 1) % every else [])
    with tempfile.TemporaryDirectory() as tmp:
        for n, f in enumerate(frames):
            scene.draw(f, marks)
            scene.save(os.path.join(tmp, f"f{n:05d}.png"))
        pattern = os.path.join(tmp, "f%05d.png")
        if path.endswith(".gif"):
            filters = "split[a][b];[a]palettegen=max_colors=64[p];[b][p]paletteuse=dither=bayer"
            cmd = [ffmpeg, "-y", "-loglevel", "error", "-framerate", str(fps), "-i", pattern, "-vf", filters, path]
        else:
            cmd = [ffmpeg, "-y", "-loglevel", "error", "-framerate", str(fps), "-i", pattern, "-c:v", "libx264",
                   "-pix_fmt", "yuv420p", "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2", "-crf", "28", path]
        subprocess.run(cmd, check=True)
    return len(frames)


def main(argv):
    a = parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        render(a, tmp)


def render(a, tmp):
    if not os.path.exists(a.trajectory):
        fail(f"{a.trajectory}: no such file or directory")
    name = os.path.basename(os.path.normpath(a.trajectory))
    # Beside the input: RUN.certify.json for RUN.h5, NAME.certify.json for NAME.pvd or NAME/.
    beside = os.path.splitext(os.path.normpath(a.trajectory))[0] + ".certify.json"
    given = a.certificate or (beside if os.path.isfile(beside) else "")
    certificate = given  # for a dataset: its translation into the converted trajectory's rows
    dataset = is_dataset(a.trajectory)
    has_times = True
    if dataset:
        path, certificate, has_times = convert_dataset(a.trajectory, a.bodies, certificate, eipc_binary(a.eipc), tmp)
    elif a.bodies:
        fail(f"--bodies applies to datasets; {a.trajectory} is an eipc trajectory with its own bodies")
    else:
        path = a.trajectory
    traj = Trajectory(path)
    # Datasets have no time unit; without a .pvd their frames are numbered, not timed.
    unit = " s" if not dataset else ""
    try:
        size = [int(v) for v in a.size.lower().split("x")]
        view = [float(v) for v in a.view.split(",")]
        times = [float(t) for t in a.times.split(",")] if a.times else []
        fit = [float(t) for t in a.fit_times.split(",")] if a.fit_times else [traj.times[0], traj.times[-1]]
        notes = a.notes.split(",") if a.notes else [""] * len(times)
        assert len(notes) == len(times) and len(size) == 2 and len(fit) == 2 and fit[0] <= fit[1] and min(size) >= 16 and len(view) == 3 and any(view)
    except (ValueError, AssertionError):
        fail(f"--size '{a.size}', --view '{a.view}', --times '{a.times}', --notes or --fit-times '{a.fit_times}': "
             "not WxH, x,y,z, t1,t2,..., one note per time and t0,t1")
    # A time past the run would silently draw its nearest frame, the last one.
    spacing = float(np.max(np.diff(traj.times))) if len(traj.times) > 1 else 0.0
    for option, values in (("--times", times), ("--fit-times", fit if a.fit_times else [])):
        outside = [t for t in values if not traj.times[0] - spacing / 2 <= t <= traj.times[-1] + spacing / 2]
        if outside:
            what = "frames" if has_times else "frame numbers"
            fail(f"{option}: {', '.join(f'{t:g}' for t in outside)}{unit} outside the stored {what} of {a.trajectory} "
                 f"({traj.times[0]:g} .. {traj.times[-1]:g}{unit})")
    focus = [n for n in a.focus.split(",") if n] or traj.names
    for n in focus:
        if n not in traj.names:
            fail(f"--focus: no body '{n}' in {a.trajectory} (bodies: {', '.join(traj.names)})")
    marks = certificate_marks(certificate, traj) if certificate else ({}, {})
    embeddings = sorted(set(e for e in traj.embeddings if e != "full")) or ["full"]
    label = a.label or (f"{traj.scenario} (dataset)" if dataset else f"{traj.scenario} ({'/'.join(embeddings)})")
    os.makedirs(a.out, exist_ok=True)
    prefix = a.prefix or (name if os.path.isdir(a.trajectory) else os.path.splitext(name)[0])
    fit_frames = [int(np.argmin(np.abs(traj.times - t))) for t in fit]
    clock = (lambda f: f"t = {traj.times[f]:.3f}{unit}") if has_times else (lambda f: f"frame {f}")
    scene = Scene(traj, size, view, a.zoom, focus, fit_frames, label, clock)
    chosen = [int(np.argmin(np.abs(traj.times - t))) for t in times] or [0, len(traj.times) - 1]
    record = {"trajectory": a.trajectory, "dataset": dataset, "certificate": given, "size": size, "bodies": traj.names,
              "colours": {n: PALETTE[i % len(PALETTE)] for i, n in enumerate(traj.names)}, "pictures": []}
    for f, note in zip(chosen, notes or ["", ""]):
        centres, count = scene.draw(f, marks, note)
        png = os.path.join(a.out, f"{prefix}_t{traj.times[f]:.3f}.png" if has_times else f"{prefix}_frame{f}.png")
        scene.save(png)
        record["pictures"].append({"file": os.path.basename(png), "frame": f, "time": float(traj.times[f]),
                                   "centres": centres, "marked_vertices": count})
        print(f"wrote {png}")
    if a.movie:
        every = a.movie_every or max(1, math.ceil(len(traj.times) / 200))
        movie = os.path.join(a.out, a.movie)
        n = make_movie(scene, traj, marks, movie, a.fps, every)
        record["movie"] = {"file": a.movie, "frames": n, "every": every}
        print(f"wrote {movie} ({n} frames)")
    with open(os.path.join(a.out, f"{prefix}.render.json"), "w") as fh:
        json.dump(record, fh, indent=1)


if __name__ == "__main__":
    main(sys.argv[1:])
