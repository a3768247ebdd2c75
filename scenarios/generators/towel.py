#!/usr/bin/python3
"""A square towel as a fine triangle grid and the coarse grid that embeds it (issue 61).

    scenarios/generators/towel.py OUT_DIR [--side 0.2] [--fine 140] [--coarse 32] [--name towel]

Writes OUT_DIR/NAME_fine.obj (FINE x FINE cells, two triangles each) and
OUT_DIR/NAME_coarse.obj (COARSE x COARSE cells; --coarse 0: none, make it with
`eipc embed NAME_fine.obj --vertices N --out NAME_coarse.obj`) over the same square, z = 0, centred on
the origin: both flat, so every fine vertex lies on the coarse surface, as an embedded
shell's must (docs/elasticity.md, "Embedded shells"). Debian's /usr/bin/python3, no
third-party modules.
"""
import argparse
import os


def write_grid(path, side, cells):
    with open(path, "w") as f:
        f.write(f"# {os.path.basename(path)}: a {side} m square, {cells} x {cells} cells (two triangles each), "
                f"z = 0, centred on the origin (scenarios/generators/towel.py)\n")
        for j in range(cells + 1):
            for i in range(cells + 1):
                f.write(f"v {side * (i / cells - 0.5):.9f} {side * (j / cells - 0.5):.9f} 0\n")
        for j in range(cells):
            for i in range(cells):
                a = 1 + i + (cells + 1) * j
                f.write(f"f {a} {a + 1} {a + cells + 2}\nf {a} {a + cells + 2} {a + cells + 1}\n")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out")
    p.add_argument("--side", type=float, default=0.2)
    p.add_argument("--fine", type=int, default=140)
    p.add_argument("--coarse", type=int, default=32)
    p.add_argument("--name", default="towel")
    a = p.parse_args()
    os.makedirs(a.out, exist_ok=True)
    write_grid(os.path.join(a.out, f"{a.name}_fine.obj"), a.side, a.fine)
    if a.coarse > 0:
        write_grid(os.path.join(a.out, f"{a.name}_coarse.obj"), a.side, a.coarse)
    print(f"{(a.fine + 1) ** 2} fine and {(a.coarse + 1) ** 2 if a.coarse > 0 else 'no'} coarse vertices in {a.out}")


if __name__ == "__main__":
    main()
