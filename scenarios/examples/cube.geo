// A 4 cm cube standing on z = 0, tetrahedralised by Gmsh (docs/scene-format.md, "Your own scene"):
//   gmsh -3 -nt 1 -format msh22 cube.geo -o cube.msh
SetFactory("OpenCASCADE");
Box(1) = {-0.02, -0.02, 0, 0.04, 0.04, 0.04};
Mesh.CharacteristicLengthMax = 0.01;
Mesh.RandomSeed = 1;
