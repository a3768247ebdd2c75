// Ball of radius R centred at the origin (metres), meshed with tets of size about h.
// Used for the resolution study: the same shape at several h (gmsh -setnumber h VALUE).
SetFactory("OpenCASCADE");
DefineConstant[ R = 0.05, h = 0.01 ];
Sphere(1) = {0, 0, 0, R};
Mesh.MeshSizeMin = h / 2;
Mesh.MeshSizeMax = h;
Mesh.MeshSizeFromCurvature = 0;
Mesh.Algorithm = 6;      // Frontal-Delaunay surfaces
Mesh.Algorithm3D = 1;    // Delaunay volume
Mesh.Optimize = 1;
Mesh.RandomSeed = 1;
Mesh.MshFileVersion = 2.2;
