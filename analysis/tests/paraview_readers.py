"""Opens a trajectory's XDMF sidecars in every XDMF reader of ParaView (run with pvpython).

    pvpython analysis/tests/paraview_readers.py RUN.h5 [--fields] [--marked N]

RUN.xdmf in Xdmf3ReaderS (ParaView's default for .xdmf) and Xdmf3ReaderT, RUN.xdmf2 in the
legacy XDMFReader. For each reader: the time values are /frames/time; at the first, a middle
and the last time every body's points, triangles and bounds are those of the HDF5 file at that
frame (so the bounds move with the bodies), and the block names are the body names (Xdmf3ReaderS
merges the bodies into pieces without names: there the body_id array tells them apart). With
--fields the point arrays of RUN.fields.h5 (eipc fields) come through with their values, and
`intersecting` sums to N over the run. Prints one line per check; exits 1 on the first failure.
"""
import os
import sys

import h5py
import numpy as np
import paraview.simple as pv
from paraview import servermanager

FAILURES = []


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what, flush=True)
    if not ok:
        FAILURES.append(what)


def leaves(data):
    """[(name or None, dataset)] of every non-empty leaf, in order."""
    out = []
    it = data.NewIterator()
    it.InitTraversal()
    while not it.IsDoneWithTraversal():
        meta = it.GetCurrentMetaData()
        name = meta.Get(data.NAME()) if meta is not None and meta.Has(data.NAME()) else None
        out.append((name, it.GetCurrentDataObject()))
        it.GoToNextItem()
    return out


def points(ds):
    from vtkmodules.util.numpy_support import vtk_to_numpy
    return vtk_to_numpy(ds.GetPoints().GetData()) if ds.GetPoints() else np.zeros((0, 3))


def point_array(ds, name):
    from vtkmodules.util.numpy_support import vtk_to_numpy
    a = ds.GetPointData().GetArray(name)
    return None if a is None else vtk_to_numpy(a)


def main():
    args = sys.argv[1:]
    path = os.path.abspath(args[0])
    with_fields = "--fields" in args
    marked = int(args[args.index("--marked") + 1]) if "--marked" in args else None
    base = os.path.splitext(path)[0]
    h5 = h5py.File(path, "r")
    times = h5["frames/time"][:]
    all_names = [str(n) for n in h5.attrs["body_names"]]
    names = [n for n in all_names if h5[f"bodies/{n}/surface_triangles"].shape[0] > 0]
    fields = h5py.File(base + ".fields.h5", "r") if with_fields else None
    frames = sorted({0, len(times) // 2, len(times) - 1})
    intersecting_total = {}

    readers = [("Xdmf3ReaderS", base + ".xdmf"), ("Xdmf3ReaderT", base + ".xdmf"), ("XDMFReader", base + ".xdmf2")]
    for reader_name, xdmf in readers:
        tag = f"{reader_name} {os.path.basename(xdmf)}:"
        if reader_name == "XDMFReader":
            reader = pv.XDMFReader(FileNames=[xdmf])
        else:
            reader = getattr(pv, reader_name)(FileName=[xdmf])
        tv = np.array(reader.TimestepValues)
        check(tv.shape == times.shape and np.allclose(tv, times, rtol=0, atol=1e-12),
              f"{tag} {len(tv)} time values = /frames/time ({len(times)})")
        intersecting_total[reader_name] = 0
        for f in range(len(times)) if marked is not None else frames:
            reader.UpdatePipeline(times[f])
            blocks = leaves(servermanager.Fetch(reader))
            if f in frames:
                check(len(blocks) == len(names), f"{tag} t = {times[f]:.4g}: {len(blocks)} blocks, one per body")
            if reader_name == "Xdmf3ReaderS":  # one piece per body, unnamed: match by body_id, else by order
                if with_fields:
                    ids = [point_array(ds, "body_id") for _, ds in blocks]
                    block_names = [all_names[int(i[0])] if i is not None and len(i) else None for i in ids]
                else:
                    block_names = names[:len(blocks)]
            else:
                block_names = [n for n, _ in blocks]
                if f in frames:
                    check(block_names == names, f"{tag} t = {times[f]:.4g}: block names {block_names} = {names}")
            for name, (_, ds) in zip(block_names, blocks):
                if name is None:
                    check(False, f"{tag} t = {times[f]:.4g}: a block without a body")
                    continue
                if with_fields and marked is not None:
                    flags = point_array(ds, "intersecting")
                    intersecting_total[reader_name] += int(flags.sum()) if flags is not None else 0
                if f not in frames:
                    continue
                x = h5[f"bodies/{name}/positions"][f]
                ntri = h5[f"bodies/{name}/surface_triangles"].shape[0]
                p = points(ds)
                check(p.shape == x.shape and np.array_equal(p, x),
                      f"{tag} t = {times[f]:.4g}: {name}: {len(p)} points = frame {f}'s {len(x)} positions")
                check(ds.GetNumberOfCells() == ntri, f"{tag} t = {times[f]:.4g}: {name}: {ds.GetNumberOfCells()} triangles")
                b = np.array(ds.GetBounds()) if len(p) else np.full(6, np.nan)
                want = np.ravel(np.column_stack([x.min(axis=0), x.max(axis=0)]))
                check(np.allclose(b, want, rtol=0, atol=1e-12),
                      f"{tag} t = {times[f]:.4g}: {name}: bounds z [{b[4]:.4f}, {b[5]:.4f}] = frame {f}'s")
                if with_fields:
                    for array in ("body_id", "velocity"):
                        got = point_array(ds, array)
                        ref = fields[f"bodies/{name}/{array}"]
                        ref = ref[f] if array == "velocity" else ref[:]
                        check(got is not None and np.array_equal(got, ref),
                              f"{tag} t = {times[f]:.4g}: {name}: point array {array} = RUN.fields.h5")
        pv.Delete(reader)
        if marked is not None:
            check(intersecting_total[reader_name] == marked,
                  f"{tag} intersecting sums to {intersecting_total[reader_name]} over the run (expected {marked})")

    if with_fields:  # the arrays themselves: central differences, height above the ground
        ground = h5.attrs.get("ground_height")
        for n in names:
            x = h5[f"bodies/{n}/positions"][:]
            lo, hi = np.maximum(np.arange(len(times)) - 1, 0), np.minimum(np.arange(len(times)) + 1, len(times) - 1)
            v = (x[hi] - x[lo]) / (times[hi] - times[lo])[:, None, None]
            check(np.allclose(fields[f"bodies/{n}/velocity"][:], v, rtol=1e-6, atol=1e-6),
                  f"{n}: velocity = central differences of the positions")
            if ground is not None:
                check(np.allclose(fields[f"bodies/{n}/ground_distance"][:], x[:, :, 2] - ground, rtol=1e-6, atol=1e-7),
                      f"{n}: ground_distance = z - {ground}")
    # The bodies moved: the checks above compared moving bounds, not one frozen frame.
    moved = any(not np.array_equal(h5[f"bodies/{n}/positions"][0], h5[f"bodies/{n}/positions"][-1]) for n in names)
    check(moved, "some body moves between the first and the last frame")
    if FAILURES:
        print(f"{len(FAILURES)} check(s) failed", flush=True)
        sys.exit(1)
    print("all checks passed", flush=True)


main()
