#include "eipc/mesh/volume.hpp"

#include <Eigen/Geometry>

namespace eipc {

double tet_signed_volume(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  // det(b-a, c-a, d-a) = (b-a) . ((c-a) x (d-a))
  return (b - a).dot((c - a).cross(d - a)) / 6.0;
}

VecX tet_signed_volumes(const Positions& x, const Tets& tets) {
  VecX v(tets.rows());
  for (Eigen::Index t = 0; t < tets.rows(); ++t)
    v[t] = tet_signed_volume(x.row(tets(t, 0)).transpose(), x.row(tets(t, 1)).transpose(),
                             x.row(tets(t, 2)).transpose(), x.row(tets(t, 3)).transpose());
  return v;
}

double tet_mesh_volume(const Positions& x, const Tets& tets) {
  double sum = 0.0;
  const VecX v = tet_signed_volumes(x, tets);
  for (Eigen::Index t = 0; t < v.size(); ++t) sum += v[t];
  return sum;
}

double enclosed_volume(const Positions& x, const Tris& faces) {
  if (x.rows() == 0) return 0.0;
  const Vec3 p = x.colwise().mean().transpose();
  double sum = 0.0;
  for (Eigen::Index f = 0; f < faces.rows(); ++f) {
    const Vec3 a = x.row(faces(f, 0)).transpose() - p;
    const Vec3 b = x.row(faces(f, 1)).transpose() - p;
    const Vec3 c = x.row(faces(f, 2)).transpose() - p;
    sum += a.dot(b.cross(c));
  }
  return sum / 6.0;
}

double bounding_box_size(const Positions& x) {
  if (x.rows() == 0) return 0.0;
  return (x.colwise().maxCoeff() - x.colwise().minCoeff()).maxCoeff();
}

}  // namespace eipc
