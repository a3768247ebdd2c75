// Fin Ray finger: a triangular profile in the x-z plane extruded along y.
//
//   base  : the flat face z = 0, x in [0, W], y in [-D/2, D/2] (bolted to the gripper)
//   front : the contact wall, outer face in the plane x = 0, from the base to the tip
//   back  : the slanted wall from (x = W, z = 0) to the tip (x = 0, z = L)
//   tip   : the edge x = 0, z = L, where the two walls meet
//   ribs  : nr slanted cross ribs of thickness tr joining the walls, each rising by
//           rib_deg degrees from the front wall towards the back wall
//
// Solid = outer triangle minus the cavities, cavities = inner triangle minus the ribs,
// where the inner triangle is the outer one offset inwards by tw (walls) and tb (base bar).
// The profile is meshed with triangles of size h and extruded in nl layers
// (each prism split into 3 tets), so every tet spans 1/nl of the depth.
//
// Parameters (override with gmsh -setnumber NAME VALUE): lengths in metres.
SetFactory("OpenCASCADE");
DefineConstant[ L = 0.055, W = 0.020, D = 0.020, tw = 0.0015, tb = 0.002, tr = 0.001,
                nr = 5, rib_deg = 10, h = 0.0009, hr = 0.0005, nl = 4 ];  // = finray.msh
// h: triangle size of the profile; hr > 0: finer size on the ribs (within tr of their
// centre lines); nl: number of element layers through the depth D.

y0 = -D / 2;
// Inner offset of the back wall line x/W + z/L = 1 by tw: x/W + z/L = s.
s = 1 - tw * Sqrt(1 / W^2 + 1 / L^2);
z_apex = L * (s - tw / W);   // inner triangle apex (on the inner front face x = tw)
x_foot = W * (s - tb / L);   // inner triangle back corner (on the base bar z = tb)

// Outer triangle.
Point(1) = {0, y0, 0}; Point(2) = {W, y0, 0}; Point(3) = {0, y0, L};
Line(1) = {1, 2}; Line(2) = {2, 3}; Line(3) = {3, 1};
Curve Loop(1) = {1, 2, 3}; Plane Surface(1) = {1};

// Inner triangle (the cavity before the ribs are put back).
Point(4) = {tw, y0, tb}; Point(5) = {x_foot, y0, tb}; Point(6) = {tw, y0, z_apex};
Line(4) = {4, 5}; Line(5) = {5, 6}; Line(6) = {6, 4};
Curve Loop(2) = {4, 5, 6}; Plane Surface(2) = {2};

// Ribs: rectangles of thickness tr around the lines through (tw, z_k) with direction
// (cos a, sin a), z_k = tb + k (z_apex - tb) / (nr + 1), long enough to cross the cavity.
a = rib_deg * Pi / 180;
c = Cos(a); sn = Sin(a);
ribs[] = {};
fields[] = {};
For k In {1 : nr}
  zk = tb + k * (z_apex - tb) / (nr + 1);
  t0 = -0.002; t1 = W + 0.002;                 // extent along the rib line
  ox = -sn * tr / 2; oz = c * tr / 2;          // half-thickness offset (normal to the rib)
  p = newp;
  Point(p)     = {tw + t0 * c + ox, y0, zk + t0 * sn + oz};
  Point(p + 1) = {tw + t0 * c - ox, y0, zk + t0 * sn - oz};
  Point(p + 2) = {tw + t1 * c - ox, y0, zk + t1 * sn - oz};
  Point(p + 3) = {tw + t1 * c + ox, y0, zk + t1 * sn + oz};
  l = newl;
  Line(l) = {p, p + 1}; Line(l + 1) = {p + 1, p + 2}; Line(l + 2) = {p + 2, p + 3}; Line(l + 3) = {p + 3, p};
  cl = newll; Curve Loop(cl) = {l, l + 1, l + 2, l + 3};
  sf = news; Plane Surface(sf) = {cl};
  ribs[] += sf;
  // size field: hr on the rib, growing with the distance |n . (x - x_k)| from its centre line
  Field[k] = MathEval;
  Field[k].F = Sprintf("%.17g + 0.5 * abs(%.17g * (x - %.17g) + %.17g * (z - %.17g))", hr, -sn, tw, c, zk);
  fields[] += k;
EndFor
If (hr > 0)
  Field[nr + 1] = MathEval; Field[nr + 1].F = Sprintf("%.17g", h);
  fields[] += nr + 1;
  Field[nr + 2] = Min; Field[nr + 2].FieldsList = {fields[]};
  Background Field = nr + 2;
EndIf

cav[] = BooleanDifference{ Surface{2}; Delete; }{ Surface{ribs[]}; Delete; };
fin[] = BooleanDifference{ Surface{1}; Delete; }{ Surface{cav[]}; Delete; };
ext[] = Extrude {0, D, 0} { Surface{fin[]}; Layers{nl}; };

Mesh.MeshSizeMin = h / 4;
Mesh.MeshSizeMax = h;
Mesh.MeshSizeFromCurvature = 0;
Mesh.Algorithm = 6;      // Frontal-Delaunay for the profile
Mesh.RandomSeed = 1;
Mesh.MshFileVersion = 2.2;
