#include "eipc/broad_phase/candidate_cache.hpp"

#include "eipc/collisions/contact_set.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

namespace eipc {

namespace {

/// Is x within `skin` of `reference` after the mean translation of `vertices`,
/// or else (if `turn`) after the rigid motion that best follows them?
bool covers(const Positions& reference, double skin, const Positions& x, const std::vector<int>& vertices, bool turn) {
  return skin >= 0.0 && x.rows() == reference.rows() && follow(reference, x, vertices, skin, turn).deviation <= skin;
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
                               double ccd_stop_fraction, double patch_min_stretch)
    : dhat_(dhat),
      min_skin_(min_skin),
      max_skin_(std::max(min_skin, max_skin)),
      contact_skin_(std::min(contact_skin, min_skin)),
      ccd_stop_fraction_(ccd_stop_fraction),
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

bool CandidateCache::holds(double inflation, double scale, const RigidFit& at0, const RigidFit& at1) const {
  // Along the straight move a pair s apart at reference stays at least
  // c s - 2 deviation apart, c = cos(half the turn between the two fits); the
  // pairs left out are more than `inflation` apart there. They must stay out
  // of contact, and keep more of their distance than the CCD could stop them
  // at (at most the fraction times their distance at x0, s + 2 deviation).
  const double lower = half_angle_cosine(at0, at1) * inflation - 2.0 * std::max(at0.deviation, at1.deviation);
  // Far above the round-off of the fits, and above the CCD's allowance for its own.
  const double moved = std::max((at0.to_mean - at0.from_mean).norm(), (at1.to_mean - at1.from_mean).norm());
  const double margin = 1e-9 * inflation + 1e-12 * (scale + moved);
  return lower > dhat_ + margin && lower > ccd_stop_fraction_ * (inflation + 2.0 * at0.deviation) + margin;
}

bool CandidateCache::keeps(const Group& g, const Positions& x0, const Positions& x1) const {
  if (g.skin < 0.0 || x0.rows() != g.reference.rows() || x1.rows() != g.reference.rows()) return false;
  const RigidFit at0 = follow(g.reference, x0, g.vertices, g.skin, g.turns());
  if (at0.deviation > g.skin) return false;
  if (&x1 == &x0) return true;  // no pair left out is within inflation - 2 skin > dhat
  const RigidFit at1 = follow(g.reference, x1, g.vertices, g.skin, g.turns());
  if (at1.deviation > g.skin) return false;
  // Within the skin after the mean translation at both ends: in the frame that
  // follows it, every pair left out has swept boxes more than dhat apart (the
  // boxes at reference, grown by the skin), so it is in no contact on the way
  // and fails the CCD's box test. After a turn, the bound of `holds`.
  return (at0.rotation.isIdentity(0.0) && at1.rotation.isIdentity(0.0)) || holds(g.inflation, g.scale, at0, at1);
}

const Candidates& CandidateCache::group_along(Group& g, const CollisionMesh& mesh, const Positions& x0,
                                              const Positions& x1, const std::vector<char>& trusted, bool& one_off) {
  // Only a body's pairs with itself can lie in one patch.
  const bool excluding = g.body >= 0 && patch_min_stretch_ > 0.0 && !trusted.empty();
  if (still_trusted(g.trusted, trusted) && keeps(g, x0, x1)) return g.cached;
  auto find = [&](const Positions& a, const Positions& b, double inflation) {
    exclusion_.trusted = trusted;
    return g.body >= 0 ? find_candidates_within_body(mesh, a, b, inflation, g.body, &trees_, excluding ? &exclusion_ : nullptr)
                       : find_candidates_between_bodies(mesh, a, b, inflation, &trees_);
  };
  // How the group moves beyond the rigid motion that best follows it; room
  // for this sweep and a few more like it.
  RigidFit move;
  if (&x1 != &x0) {
    move = fit_translation(x0, x1, g.vertices);
    if (move.deviation > max_skin_ && g.turns()) move = fit_rigid(x0, x1, g.vertices, max_skin_);
  }
  const double skin = std::clamp(2.0 * move.deviation, min_skin_, max_skin_);
  const double inflation = dhat_ + 2.001 * skin;  // a hair more against round-off
  const double scale = x0.size() > 0 ? x0.cwiseAbs().maxCoeff() : 0.0;
  if (move.deviation <= max_skin_ && (&x1 == &x0 || holds(inflation, scale, RigidFit{}, move))) {
    g.skin = skin;
    g.inflation = inflation;
    g.scale = scale;
    g.reference = x0;
    g.trusted = excluding ? trusted : std::vector<char>{};
    const Candidates then = std::move(g.cached);
    g.cached = find(x0, x0, inflation);
    g.gaps.carry(then, g.cached);
    ++g.rebuilds;
    return g.cached;
  }
  // A one-off for this sweep: the pairs whose swept boxes come within dhat in
  // the frame that follows the group's mean translation (the fits' means).
  g.one_off = find(x0, x1.rowwise() - (move.to_mean - move.from_mean).transpose(), dhat_);
  one_off = true;
  return g.one_off;
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
  if (g.contact_generation == g.rebuilds && covers(g.contact_reference, contact_skin_, x, g.vertices, g.turns()))
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
