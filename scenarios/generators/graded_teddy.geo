// A graded embedding for the teddy of scenarios/bubble_grasp/teddy.json (issue 40,
// docs/embedding.md "Graded embeddings"): a box around the bear, meshed with tets of size
// hc (coarse, about the `low` lattice's spacing) except in two boxes around the patches
// where the bubbles press the bear, where the size is hf; the size grows from hf to hc over
// a layer of thickness tk around each patch box. Written in teddy.vtk's frame (the frame
// of the body's mesh, before the scene's transform), like teddy_low.msh.
//
// Made by scenarios/generators/graded_teddy.py, which computes the boxes from the bear and
// the scene and passes them with -setnumber; the defaults below are only placeholders.
// Tets outside the bear are kept here: eipc drops the tets that hold none of the bear's
// volume and the nodes no vertex of the bear depends on (docs/embedding.md).
//
//   bx0..bz1 : the outer box            hc : coarse size      hf : fine size
//   l{x,y,z}{0,1}, r{x,y,z}{0,1} : the left and right patch boxes     tk : transition
SetFactory("OpenCASCADE");
DefineConstant[ bx0 = -0.4, bx1 = 0.4, by0 = -0.1, by1 = 1.1, bz0 = -0.4, bz1 = 0.5,
                hc = 0.4, hf = 0.1, tk = 0.2,
                lx0 = -0.36, lx1 = -0.2, ly0 = 0.2, ly1 = 0.6, lz0 = -0.1, lz1 = 0.3,
                rx0 = 0.2, rx1 = 0.36, ry0 = 0.2, ry1 = 0.6, rz0 = -0.1, rz1 = 0.3 ];

Box(1) = {bx0, by0, bz0, bx1 - bx0, by1 - by0, bz1 - bz0};

Field[1] = Box;
Field[1].VIn = hf; Field[1].VOut = hc; Field[1].Thickness = tk;
Field[1].XMin = lx0; Field[1].XMax = lx1; Field[1].YMin = ly0; Field[1].YMax = ly1;
Field[1].ZMin = lz0; Field[1].ZMax = lz1;
Field[2] = Box;
Field[2].VIn = hf; Field[2].VOut = hc; Field[2].Thickness = tk;
Field[2].XMin = rx0; Field[2].XMax = rx1; Field[2].YMin = ry0; Field[2].YMax = ry1;
Field[2].ZMin = rz0; Field[2].ZMax = rz1;
Field[3] = Min;
Field[3].FieldsList = {1, 2};
Background Field = 3;

Mesh.MeshSizeExtendFromBoundary = 0;
Mesh.MeshSizeFromPoints = 0;
Mesh.MeshSizeFromCurvature = 0;
Mesh.MeshSizeMax = hc;
Mesh.Algorithm3D = 1;      // Delaunay
Mesh.Optimize = 1;
Mesh.RandomSeed = 1;
Mesh.MshFileVersion = 2.2;
