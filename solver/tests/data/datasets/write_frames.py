#!/usr/bin/python3
"""Writes two-frame datasets of two unit cubes in every format eipc certify reads,
with other tools' writers: Python's struct for PLY (both byte orders, float and
double, colours, quads, an extra element), VTK's writers for STL, legacy VTK, VTK
XML (ascii, inline binary, appended raw and base64, zlib) and a ParaView .pvd.

Frame 0: cube A = [0,1]^3 and cube B = A + (2.1, 0, 0), apart.
Frame 1: B moved to A + (0.5, 0.1, 0.1): the cubes intersect.
Both cubes are one mesh per file (A's vertices first), as most datasets store them.

    /usr/bin/python3 write_frames.py OUTDIR
"""
import os
import struct
import sys

CORNERS = [(x, y, z) for z in (0, 1) for y in (0, 1) for x in (0, 1)]  # index = x + 2y + 4z
QUADS = [(0, 2, 3, 1), (4, 5, 7, 6), (0, 1, 5, 4), (2, 6, 7, 3), (0, 4, 6, 2), (1, 3, 7, 5)]  # outward
TETS = [(0, 1, 3, 7), (0, 3, 2, 7), (0, 2, 6, 7), (0, 6, 4, 7), (0, 4, 5, 7), (0, 5, 1, 7)]  # Kuhn, positive
OFFSETS = [(2.1, 0.0, 0.0), (0.5, 0.1, 0.1)]  # B's place in frames 0 and 1


def points(frame):
    dx, dy, dz = OFFSETS[frame]
    return [tuple(map(float, c)) for c in CORNERS] + [(x + dx, y + dy, z + dz) for x, y, z in CORNERS]


def quads():
    return [q for shift in (0, 8) for q in [tuple(v + shift for v in quad) for quad in QUADS]]


def triangles():
    return [t for q in quads() for t in ((q[0], q[1], q[2]), (q[0], q[2], q[3]))]


def ply(path, frame, encoding, scalar):
    """PLY with per-vertex colours and an unused element; faces are quads."""
    pts, faces = points(frame), quads()
    header = ["ply", f"format {encoding} 1.0", "comment written by Python's struct",
              f"element vertex {len(pts)}", f"property {scalar} x", f"property {scalar} y", f"property {scalar} z",
              "property uchar red", "property uchar green", "property uchar blue",
              f"element face {len(faces)}", "property list uchar int vertex_indices",
              "element material 1", "property float shine", "end_header"]
    with open(path, "wb") as f:
        f.write(("\n".join(header) + "\n").encode())
        if encoding == "ascii":
            for p in pts:
                f.write(("%r %r %r 200 10 10\n" % p).encode())
            for q in faces:
                f.write(("4 %d %d %d %d\n" % q).encode())
            f.write(b"0.5\n")
            return
        order = "<" if encoding == "binary_little_endian" else ">"
        code = "f" if scalar == "float" else "d"
        for p in pts:
            f.write(struct.pack(order + 3 * code + "BBB", *p, 200, 10, 10))
        for q in faces:
            f.write(struct.pack(order + "B4i", 4, *q))
        f.write(struct.pack(order + "f", 0.5))


def vtk_polydata(frame):
    from vtkmodules.vtkCommonCore import vtkPoints
    from vtkmodules.vtkCommonDataModel import vtkCellArray, vtkPolyData
    pts = vtkPoints()
    pts.SetDataTypeToDouble()
    for p in points(frame):
        pts.InsertNextPoint(p)
    polys = vtkCellArray()
    for t in triangles():
        polys.InsertNextCell(3, t)
    pd = vtkPolyData()
    pd.SetPoints(pts)
    pd.SetPolys(polys)
    return pd


def vtk_tets(frame):
    from vtkmodules.vtkCommonCore import vtkPoints
    from vtkmodules.vtkCommonDataModel import VTK_TETRA, vtkUnstructuredGrid
    pts = vtkPoints()
    pts.SetDataTypeToFloat()  # float points: the reader must widen them exactly
    for p in points(frame):
        pts.InsertNextPoint(p)
    grid = vtkUnstructuredGrid()
    grid.SetPoints(pts)
    for shift in (0, 8):
        for t in TETS:
            grid.InsertNextCell(VTK_TETRA, 4, [v + shift for v in t])
    return grid


def write(writer, data, path, **settings):
    writer.SetInputData(data)
    writer.SetFileName(path)
    for name, value in settings.items():
        getattr(writer, name)(*value) if isinstance(value, tuple) else getattr(writer, name)()
    if not writer.Write():
        sys.exit(f"write_frames.py: VTK could not write {path}")


def main(out):
    from vtkmodules.vtkIOGeometry import vtkSTLWriter
    from vtkmodules.vtkIOLegacy import vtkPolyDataWriter, vtkUnstructuredGridWriter
    from vtkmodules.vtkIOXML import vtkXMLPolyDataWriter, vtkXMLUnstructuredGridWriter
    sets = {
        "ply_ascii": lambda p, k: ply(p + ".ply", k, "ascii", "double"),
        "ply_le_float": lambda p, k: ply(p + ".ply", k, "binary_little_endian", "float"),
        "ply_be_double": lambda p, k: ply(p + ".ply", k, "binary_big_endian", "double"),
        "stl_binary": lambda p, k: write(vtkSTLWriter(), vtk_polydata(k), p + ".stl", SetFileTypeToBinary=()),
        "stl_ascii": lambda p, k: write(vtkSTLWriter(), vtk_polydata(k), p + ".stl", SetFileTypeToASCII=()),
        "vtk_polydata_ascii": lambda p, k: write(vtkPolyDataWriter(), vtk_polydata(k), p + ".vtk"),
        "vtk_polydata_binary": lambda p, k: write(vtkPolyDataWriter(), vtk_polydata(k), p + ".vtk",
                                                  SetFileTypeToBinary=()),
        "vtk_tets_binary": lambda p, k: write(vtkUnstructuredGridWriter(), vtk_tets(k), p + ".vtk",
                                              SetFileTypeToBinary=()),
        "vtp_default": lambda p, k: write(vtkXMLPolyDataWriter(), vtk_polydata(k), p + ".vtp"),  # appended base64 zlib
        "vtp_raw": lambda p, k: write(vtkXMLPolyDataWriter(), vtk_polydata(k), p + ".vtp",
                                      SetEncodeAppendedData=(False,), SetHeaderTypeToUInt64=()),
        "vtu_ascii": lambda p, k: write(vtkXMLUnstructuredGridWriter(), vtk_tets(k), p + ".vtu", SetDataModeToAscii=()),
        "vtu_binary": lambda p, k: write(vtkXMLUnstructuredGridWriter(), vtk_tets(k), p + ".vtu",
                                         SetDataModeToBinary=(), SetCompressorTypeToNone=()),
        "vtu_binary_zlib_be": lambda p, k: write(vtkXMLUnstructuredGridWriter(), vtk_tets(k), p + ".vtu",
                                                 SetDataModeToBinary=(), SetByteOrderToBigEndian=()),
    }
    for name, write_frame in sets.items():
        os.makedirs(os.path.join(out, name), exist_ok=True)
        for k in (0, 1):
            write_frame(os.path.join(out, name, f"frame{k}"), k)
    # A ParaView series: its times become the frames' times.
    os.makedirs(os.path.join(out, "series"), exist_ok=True)
    for k in (0, 1):
        write(vtkXMLUnstructuredGridWriter(), vtk_tets(k), os.path.join(out, "series", f"cubes_{k}.vtu"))
    with open(os.path.join(out, "series", "cubes.pvd"), "w") as f:
        f.write('<?xml version="1.0"?>\n<VTKFile type="Collection" version="0.1">\n  <Collection>\n')
        for k, t in ((0, 0.0), (1, 0.25)):
            f.write(f'    <DataSet timestep="{t}" group="" part="0" file="cubes_{k}.vtu"/>\n')
        f.write("  </Collection>\n</VTKFile>\n")


if __name__ == "__main__":
    main(sys.argv[1])
