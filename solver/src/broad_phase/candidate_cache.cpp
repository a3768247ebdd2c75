#include "eipc/broad_phase/candidate_cache.hpp"

#include "eipc/collisions/contact_set.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

namespace eipc {

namespace {

/// Mean displacement x - reference over `vertices`.
Eigen::RowVector3d mean_displacement(const Positions& reference, const Positions& x, const std::vector<int>& vertices) {
  Eigen::RowVector3d sum = Eigen::RowVector3d::Zero();
  for (int v : vertices) sum += x.row(v) - reference.row(v);
  return vertices.empty() ? sum : Eigen::RowVector3d(sum / double(vertices.size()));
}

/// Is every one of `vertices` within `skin` of `reference` after removing their mean displacement?
bool covers(const Positions& reference, double skin, const Positions& x, const std::vector<int>& vertices) {
  if (skin < 0.0 || x.rows() != reference.rows()) return false;
  if (vertices.empty()) return true;
  // One pass for the mean and the box of the displacements: when the box's
  // farthest corner from the mean is within the skin, so is every
  // displacement (the usual case); else a second pass decides exactly.
  Eigen::Array3d sum = Eigen::Array3d::Zero();
  Eigen::Array3d lo = Eigen::Array3d::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
  for (int v : vertices) {
    const Eigen::Array3d d = (x.row(v) - reference.row(v)).transpose().array();
    sum += d;
    lo = lo.min(d);
    hi = hi.max(d);
  }
  const Eigen::Array3d mean = sum / double(vertices.size());
  const double r2 = skin * skin;
  if ((hi - mean).max(mean - lo).matrix().squaredNorm() <= r2) return true;
  const Eigen::RowVector3d translation = mean.matrix().transpose();
  for (int v : vertices)
    if ((x.row(v) - reference.row(v) - translation).squaredNorm() > r2) return false;
  return true;
}

/// Were all patches trusted when the set was found (`then`) trusted now?
bool still_trusted(const std::vector<char>& then, const std::vector<char>& now) {
  for (std::size_t p = 0; p < then.size(); ++p)
    if (then[p] && (p >= now.size() || !now[p])) return false;
  return true;
}

/// The pairs within one affine patch closer than `distance` at rest.
Candidates close_at_rest_within_patches(const CollisionMesh& mesh, double distance) {
  const Candidates close =
      candidates_within(mesh, mesh.rest, find_candidates(mesh, mesh.rest, mesh.rest, 1.01 * distance), distance);
  PatchExclusion all;  // every patch trusted, no pair at risk: excludes exactly the pairs within one patch
  all.trusted.assign(mesh.vertex_patch.size(), 1);  // at least as many as there are patches
  Candidates out;
  for (const auto& c : close.point_triangle)
    if (all.excludes(mesh, c)) out.point_triangle.push_back(c);
  for (const auto& c : close.edge_edge)
    if (all.excludes(mesh, c)) out.edge_edge.push_back(c);
  return out;
}

void append(Candidates& to, const Candidates& from) {
  to.point_triangle.insert(to.point_triangle.end(), from.point_triangle.begin(), from.point_triangle.end());
  to.edge_edge.insert(to.edge_edge.end(), from.edge_edge.begin(), from.edge_edge.end());
}

}  // namespace

CandidateCache::CandidateCache(double dhat, double min_skin, double max_skin, double contact_skin,
                               double patch_min_stretch)
    : dhat_(dhat),
      min_skin_(min_skin),
      max_skin_(std::max(min_skin, max_skin)),
      contact_skin_(std::min(contact_skin, min_skin)),
      patch_min_stretch_(patch_min_stretch) {}

int CandidateCache::rebuilds() const {
  int n = 0;
  for (const Group& g : groups_) n += g.rebuilds;
  return n;
}

void CandidateCache::make_groups(const CollisionMesh& mesh) {
  if (!groups_.empty() && mesh_vertices_ == mesh.num_vertices()) return;
  groups_.clear();
  trees_ = BroadPhaseTrees{};
  along_generation_.clear();  // no union of the old groups is reused
  mesh_vertices_ = mesh.num_vertices();
  exclusion_ = PatchExclusion{};
  const bool patches = std::any_of(mesh.vertex_patch.begin(), mesh.vertex_patch.end(), [](int p) { return p >= 0; });
  if (patch_min_stretch_ > 0.0 && patches)
    exclusion_ = PatchExclusion(mesh, close_at_rest_within_patches(mesh, dhat_ / patch_min_stretch_ * (1.0 + 1e-6)));
  const int bodies = mesh.vertex_body.empty() ? 1 : *std::max_element(mesh.vertex_body.begin(), mesh.vertex_body.end()) + 1;
  for (int b = 0; b < bodies; ++b) {
    Group g;
    g.body = b;
    for (int v = 0; v < mesh.num_vertices(); ++v)
      if ((mesh.vertex_body.empty() ? 0 : mesh.vertex_body[v]) == b) g.vertices.push_back(v);
    groups_.push_back(std::move(g));
  }
  if (bodies > 1) {
    Group between;
    between.vertices.resize(std::size_t(mesh.num_vertices()));
    std::iota(between.vertices.begin(), between.vertices.end(), 0);
    groups_.push_back(std::move(between));
  }
}

const Candidates& CandidateCache::group_along(Group& g, const CollisionMesh& mesh, const Positions& x0,
                                              const Positions& x1, const std::vector<char>& trusted, bool& one_off) {
  // Only a body's pairs with itself can lie in one patch.
  const bool excluding = g.body >= 0 && patch_min_stretch_ > 0.0 && !trusted.empty();
  if (covers(g.reference, g.skin, x0, g.vertices) && (&x1 == &x0 || covers(g.reference, g.skin, x1, g.vertices)) &&
      still_trusted(g.trusted, trusted))
    return g.cached;
  auto find = [&](const Positions& a, const Positions& b, double inflation) {
    exclusion_.trusted = trusted;
    return g.body >= 0 ? find_candidates_within_body(mesh, a, b, inflation, g.body, &trees_, excluding ? &exclusion_ : nullptr)
                       : find_candidates_between_bodies(mesh, a, b, inflation, &trees_);
  };
  // x1 in the group's frame (only the group's vertices matter).
  const Positions x1_followed = x1.rowwise() - mean_displacement(x0, x1, g.vertices);
  double sweep = 0.0;
  for (int v : g.vertices) sweep = std::max(sweep, (x1_followed.row(v) - x0.row(v)).norm());
  if (sweep > max_skin_) {
    g.one_off = find(x0, x1_followed, dhat_);
    one_off = true;
    return g.one_off;
  }
  // Room for this sweep and a few more like it.
  g.skin = std::clamp(2.0 * sweep, min_skin_, max_skin_);
  g.reference = x0;
  g.trusted = excluding ? trusted : std::vector<char>{};
  const Candidates then = std::move(g.cached);
  g.cached = find(x0, x0, dhat_ + 2.001 * g.skin);  // a hair more against round-off
  g.gaps.carry(then, g.cached);
  ++g.rebuilds;
  return g.cached;
}

const Candidates& CandidateCache::along(const CollisionMesh& mesh, const Positions& x0, const Positions& x1,
                                       const std::vector<char>& trusted) {
  make_groups(mesh);
  bool one_off = false;
  std::vector<const Candidates*> sets;
  std::vector<int> generation;
  for (Group& g : groups_) {
    sets.push_back(&group_along(g, mesh, x0, x1, trusted, one_off));
    generation.push_back(g.rebuilds);
  }
  // Concatenated again unless it holds exactly these (cached) sets already.
  if (one_off || along_one_off_ || generation != along_generation_) {
    along_ = Candidates{};
    for (const Candidates* c : sets) append(along_, *c);
    along_generation_ = generation;
    along_one_off_ = one_off;
  }
  return along_;
}

const Candidates& CandidateCache::group_for_contacts(Group& g, const CollisionMesh& mesh, const Positions& x,
                                                     const std::vector<char>& trusted, bool& changed) {
  // A pair within dhat at x is in g.cached (which covers x) and, x being within
  // contact_skin of contact_reference in the group's frame, was within
  // dhat + 2 contact_skin there.
  bool one_off = false;  // stays false: a sweep from x to x has length 0
  const Candidates& near = group_along(g, mesh, x, x, trusted, one_off);
  if (g.contact_generation == g.rebuilds && covers(g.contact_reference, contact_skin_, x, g.vertices))
    return g.for_contacts;
  changed = true;
  g.for_contacts = g.gaps.within(mesh, x, near, dhat_ + 2.001 * contact_skin_);
  g.contact_reference = x;
  g.contact_generation = g.rebuilds;
  return g.for_contacts;
}

const Candidates& CandidateCache::for_contacts(const CollisionMesh& mesh, const Positions& x,
                                               const std::vector<char>& trusted) {
  make_groups(mesh);
  bool changed = false;
  std::vector<const Candidates*> sets;
  for (Group& g : groups_) sets.push_back(&group_for_contacts(g, mesh, x, trusted, changed));
  if (changed) {
    for_contacts_ = Candidates{};
    for (const Candidates* c : sets) append(for_contacts_, *c);
  }
  return for_contacts_;
}

}  // namespace eipc
