#include "eipc/mesh/validate.hpp"

#include "eipc/mesh/volume.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <sstream>

namespace eipc {
namespace {

std::string fmt_double(double v) {
  std::ostringstream s;
  s.precision(6);
  s << v;
  return s.str();
}

/// Throws for the first offender of a kind, with the total count.
[[noreturn]] void report(const std::string& source, const std::string& first, long count) {
  std::string msg = source + ": " + first;
  if (count > 1) msg += " (" + std::to_string(count) + " such in total)";
  throw InputError(msg);
}

}  // namespace

void validate_tet_mesh(const TetMesh& mesh, const std::string& source) {
  const Eigen::Index nv = mesh.vertices.rows();
  if (mesh.tets.rows() == 0) throw InputError(source + ": mesh has no tetrahedra");
  for (Eigen::Index i = 0; i < nv; ++i)
    if (!mesh.vertices.row(i).allFinite()) throw InputError(source + ": vertex " + std::to_string(i) + " has a NaN or infinite coordinate");
  for (Eigen::Index t = 0; t < mesh.tets.rows(); ++t)
    for (int k = 0; k < 4; ++k) {
      const int v = mesh.tets(t, k);
      if (v < 0 || v >= nv)
        throw InputError(source + ": tet " + std::to_string(t) + " refers to vertex " + std::to_string(v) +
                         ", out of range (" + std::to_string(nv) + " vertices)");
      for (int j = 0; j < k; ++j)
        if (mesh.tets(t, j) == v) throw InputError(source + ": tet " + std::to_string(t) + " repeats vertex " + std::to_string(v));
    }

  // Orientation and size: V = det(x1-x0, x2-x0, x3-x0)/6 must exceed eps * L^3.
  const VecX vol = tet_signed_volumes(mesh.vertices, mesh.tets);
  const double L = bounding_box_size(mesh.vertices);
  const double tiny = kDegenerateTetRelativeVolume * L * L * L;
  long inverted = 0, degenerate = 0;
  Eigen::Index first_inverted = -1, first_degenerate = -1;
  for (Eigen::Index t = 0; t < vol.size(); ++t) {
    if (vol[t] < -tiny) {
      if (inverted++ == 0) first_inverted = t;
    } else if (vol[t] <= tiny) {
      if (degenerate++ == 0) first_degenerate = t;
    }
  }
  if (inverted > 0)
    report(source, "tet " + std::to_string(first_inverted) + " is inverted (signed volume " + fmt_double(vol[first_inverted]) + " < 0)", inverted);
  if (degenerate > 0)
    report(source, "tet " + std::to_string(first_degenerate) + " is degenerate (volume " + fmt_double(vol[first_degenerate]) +
                       " <= " + fmt_double(kDegenerateTetRelativeVolume) + " * L^3 with L = " + fmt_double(L) + ")",
           degenerate);

  // Conformity: a triangle is a face of at most two tets, and two tets sharing it lie on
  // opposite sides, i.e. their outward copies of the face have opposite orientation.
  constexpr int kOutward[4][3] = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};
  std::vector<std::array<int, 5>> faces;  // sorted vertices, orientation parity, tet
  faces.reserve(static_cast<std::size_t>(mesh.tets.rows()) * 4);
  for (Eigen::Index t = 0; t < mesh.tets.rows(); ++t)
    for (const auto& local : kOutward) {
      const int a = mesh.tets(t, local[0]), b = mesh.tets(t, local[1]), c = mesh.tets(t, local[2]);
      // (a,b,c) is an even permutation of its sorted order iff it is a rotation of it.
      const bool even = (a < b && b < c) || (b < c && c < a) || (c < a && a < b);
      std::array<int, 5> f = {a, b, c, even ? 0 : 1, static_cast<int>(t)};
      std::sort(f.begin(), f.begin() + 3);
      faces.push_back(f);
    }
  std::sort(faces.begin(), faces.end());
  const auto same_face = [&](std::size_t i, std::size_t j) { return std::equal(faces[i].begin(), faces[i].begin() + 3, faces[j].begin()); };
  const auto face_name = [&](std::size_t i) {
    return "face (" + std::to_string(faces[i][0]) + ", " + std::to_string(faces[i][1]) + ", " + std::to_string(faces[i][2]) + ")";
  };
  for (std::size_t i = 0; i + 1 < faces.size(); ++i) {
    if (!same_face(i, i + 1)) continue;
    if (i + 2 < faces.size() && same_face(i, i + 2))
      throw InputError(source + ": " + face_name(i) + " is shared by more than two tets (tets " + std::to_string(faces[i][4]) +
                       ", " + std::to_string(faces[i + 1][4]) + ", " + std::to_string(faces[i + 2][4]) + ")");
    if (faces[i][3] == faces[i + 1][3])
      throw InputError(source + ": tets " + std::to_string(faces[i][4]) + " and " + std::to_string(faces[i + 1][4]) +
                       " overlap: both lie on the same side of their shared " + face_name(i));
  }
}

void validate_closed_surface(const Tris& faces, int num_vertices, const std::string& source,
                             SurfaceOrientation orientation) {
  if (faces.rows() == 0) throw InputError(source + ": surface has no triangles");
  std::vector<std::array<int, 4>> half;  // {min, max, direction (0: min->max), face}
  half.reserve(static_cast<std::size_t>(faces.rows()) * 3);
  for (Eigen::Index f = 0; f < faces.rows(); ++f) {
    for (int k = 0; k < 3; ++k) {
      const int v = faces(f, k);
      if (v < 0 || v >= num_vertices)
        throw InputError(source + ": triangle " + std::to_string(f) + " refers to vertex " + std::to_string(v) +
                         ", out of range (" + std::to_string(num_vertices) + " vertices)");
    }
    if (faces(f, 0) == faces(f, 1) || faces(f, 1) == faces(f, 2) || faces(f, 0) == faces(f, 2))
      throw InputError(source + ": triangle " + std::to_string(f) + " is degenerate (repeated vertex index)");
    for (int k = 0; k < 3; ++k) {
      const int a = faces(f, k), b = faces(f, (k + 1) % 3);
      half.push_back({std::min(a, b), std::max(a, b), a < b ? 0 : 1, static_cast<int>(f)});
    }
  }
  std::sort(half.begin(), half.end());
  long open = 0, nonmanifold = 0, flipped = 0;
  std::string first_open, first_nonmanifold, first_flipped;
  for (std::size_t i = 0; i < half.size();) {
    std::size_t j = i + 1;
    while (j < half.size() && half[j][0] == half[i][0] && half[j][1] == half[i][1]) ++j;
    const std::string edge = "edge (" + std::to_string(half[i][0]) + ", " + std::to_string(half[i][1]) + ")";
    if (j - i == 1) {
      if (open++ == 0) first_open = edge + " belongs to only triangle " + std::to_string(half[i][3]) + ": the surface is open";
    } else if (j - i > 2) {
      if (nonmanifold++ == 0) first_nonmanifold = edge + " is shared by " + std::to_string(j - i) + " triangles: non-manifold";
    } else if (half[i][2] == half[i + 1][2]) {
      if (flipped++ == 0)
        first_flipped = edge + " is traversed in the same direction by triangles " + std::to_string(half[i][3]) + " and " +
                        std::to_string(half[i + 1][3]) + ": inconsistent orientation";
    }
    i = j;
  }
  if (open > 0) report(source, first_open, open);
  if (nonmanifold > 0) report(source, first_nonmanifold, nonmanifold);
  if (flipped > 0 && orientation == SurfaceOrientation::consistent) report(source, first_flipped, flipped);
}

std::vector<int> unused_vertices(const TetMesh& mesh) {
  std::vector<char> used(static_cast<std::size_t>(mesh.vertices.rows()), 0);
  for (Eigen::Index i = 0; i < mesh.tets.size(); ++i) {
    const int v = mesh.tets.data()[i];
    if (v >= 0 && v < mesh.vertices.rows()) used[static_cast<std::size_t>(v)] = 1;
  }
  std::vector<int> out;
  for (std::size_t v = 0; v < used.size(); ++v)
    if (!used[v]) out.push_back(static_cast<int>(v));
  return out;
}

TetMesh remove_unused_vertices(const TetMesh& mesh, std::vector<int>* old_index) {
  std::vector<int> new_index(static_cast<std::size_t>(mesh.vertices.rows()), -1);
  for (Eigen::Index i = 0; i < mesh.tets.size(); ++i) new_index[static_cast<std::size_t>(mesh.tets.data()[i])] = 0;
  std::vector<int> keep;
  for (std::size_t v = 0; v < new_index.size(); ++v)
    if (new_index[v] == 0) {
      new_index[v] = static_cast<int>(keep.size());
      keep.push_back(static_cast<int>(v));
    }
  TetMesh out;
  out.vertices.resize(static_cast<Eigen::Index>(keep.size()), 3);
  for (std::size_t i = 0; i < keep.size(); ++i) out.vertices.row(static_cast<Eigen::Index>(i)) = mesh.vertices.row(keep[i]);
  out.tets.resize(mesh.tets.rows(), 4);
  for (Eigen::Index t = 0; t < mesh.tets.rows(); ++t)
    for (int k = 0; k < 4; ++k) out.tets(t, k) = new_index[static_cast<std::size_t>(mesh.tets(t, k))];
  if (old_index) *old_index = keep;
  return out;
}

}  // namespace eipc
