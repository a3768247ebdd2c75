#include "rigid_geometry.hpp"

#include "eipc/mesh/transform.hpp"

#include <Eigen/Geometry>
#include <Eigen/SVD>

#include <map>
#include <numeric>
#include <tuple>

namespace eipc::peers {

MassProperties tet_mass_properties(const Positions& x, const Tets& tets, double density) {
  // Second moments C = sum over tets of rho V/20 (sum_i v_i v_i^T + s s^T), s = sum_i v_i.
  double mass = 0;
  Vec3 first = Vec3::Zero();
  Mat3 second = Mat3::Zero();
  for (int e = 0; e < tets.rows(); ++e) {
    const Vec3 a = x.row(tets(e, 0)), b = x.row(tets(e, 1)), c = x.row(tets(e, 2)), d = x.row(tets(e, 3));
    const double m = density * std::abs((b - a).cross(c - a).dot(d - a)) / 6.0;
    const Vec3 s = a + b + c + d;
    mass += m;
    first += m * s / 4.0;
    second += m / 20.0 * (a * a.transpose() + b * b.transpose() + c * c.transpose() + d * d.transpose() + s * s.transpose());
  }
  MassProperties p;
  p.mass = mass;
  if (mass <= 0) return p;
  p.centre = first / mass;
  const Mat3 central = second - mass * p.centre * p.centre.transpose();
  p.inertia = central.trace() * Mat3::Identity() - central;
  return p;
}

namespace {

int find_root(std::vector<int>& parent, int i) {
  while (parent[i] != i) i = parent[i] = parent[parent[i]];
  return i;
}

/// Smallest singular value of the centred points relative to the largest: 0 when flat.
double flatness(const Positions& x, const std::vector<int>& ids) {
  if (ids.size() < 4) return 0.0;
  Vec3 mean = Vec3::Zero();
  for (int i : ids) mean += x.row(i).transpose();
  mean /= double(ids.size());
  Eigen::MatrixXd centred(ids.size(), 3);
  for (std::size_t k = 0; k < ids.size(); ++k) centred.row(k) = x.row(ids[k]) - mean.transpose();
  const Vec3 s = Eigen::JacobiSVD<Eigen::MatrixXd>(centred).singularValues();
  return s(0) > 0 ? s(2) / s(0) : 0.0;
}

Vec3 centroid_of(const Positions& x, const std::vector<int>& ids) {
  Vec3 c = Vec3::Zero();
  for (int i : ids) c += x.row(i).transpose();
  return c / double(std::max<std::size_t>(1, ids.size()));
}

}  // namespace

std::vector<std::vector<int>> convex_pieces(const Body& body, double cell) {
  const Positions& x = body.fine_rest;
  const bool volume = body.fine_tets.rows() > 0;
  const int corners = volume ? 4 : 3;
  const int elements = volume ? int(body.fine_tets.rows()) : int(body.surface.rows());
  const auto vertex = [&](int e, int k) { return volume ? body.fine_tets(e, k) : body.surface(e, k); };

  std::vector<int> parent(x.rows());
  std::iota(parent.begin(), parent.end(), 0);
  for (int e = 0; e < elements; ++e)
    for (int k = 1; k < corners; ++k) parent[find_root(parent, vertex(e, k))] = find_root(parent, vertex(e, 0));

  const Vec3 lo = x.colwise().minCoeff();
  std::map<std::tuple<int, long, long, long>, std::vector<int>> groups;
  for (int e = 0; e < elements; ++e) {
    Vec3 c = Vec3::Zero();
    for (int k = 0; k < corners; ++k) c += x.row(vertex(e, k)).transpose() / corners;
    const Vec3 g = ((c - lo) / cell).array().floor();
    std::vector<int>& ids = groups[{find_root(parent, vertex(e, 0)), long(g.x()), long(g.y()), long(g.z())}];
    for (int k = 0; k < corners; ++k) ids.push_back(vertex(e, k));
  }
  std::vector<std::vector<int>> pieces;
  std::vector<int> component;
  std::vector<bool> flat;
  for (auto& [key, ids] : groups) {
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    flat.push_back(flatness(x, ids) < 1e-3);
    component.push_back(std::get<0>(key));
    pieces.push_back(std::move(ids));
  }
  // Flat pieces join the nearest solid piece of their component, else its first flat piece.
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    if (!flat[i]) continue;
    const Vec3 c = centroid_of(x, pieces[i]);
    int best = -1;
    double best_d = 0;
    for (std::size_t j = 0; j < pieces.size(); ++j) {
      if (flat[j] || component[j] != component[i]) continue;
      const double d = (centroid_of(x, pieces[j]) - c).norm();
      if (best < 0 || d < best_d) best = int(j), best_d = d;
    }
    if (best < 0) {
      // No solid piece in the component (a box of a few big faces): its flat pieces
      // together span one hull, the component's own.
      for (std::size_t j = 0; j < i; ++j)
        if (component[j] == component[i] && !pieces[j].empty()) best = int(j);
      if (best < 0) continue;  // the first flat piece of the component collects the others
    }
    std::vector<int>& into = pieces[best];
    into.insert(into.end(), pieces[i].begin(), pieces[i].end());
    std::sort(into.begin(), into.end());
    into.erase(std::unique(into.begin(), into.end()), into.end());
    pieces[i].clear();
  }
  pieces.erase(std::remove_if(pieces.begin(), pieces.end(), [](const auto& p) { return p.empty(); }), pieces.end());
  return pieces;
}

RigidPose motion_pose(const Motion& motion, double t) {
  const Keyframe k = motion.at(t);
  return RigidPose{rotation_xyz_deg(k.rotation_deg), k.translation};
}

Positions posed(const Positions& rest, const RigidPose& pose, const Vec3& pivot) {
  Positions out(rest.rows(), 3);
  for (int i = 0; i < rest.rows(); ++i) out.row(i) = pose.apply(rest.row(i).transpose(), pivot).transpose();
  return out;
}

}  // namespace eipc::peers
