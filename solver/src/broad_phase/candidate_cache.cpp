#include "eipc/broad_phase/candidate_cache.hpp"

#include "eipc/collisions/contact_set.hpp"
#include "eipc/distance/distance.hpp"
#include "eipc/util/parallel.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <optional>

namespace eipc {

namespace {

/// A group's pairs at least this many dhat apart at its last contact
/// filtering are left out of a sweep's CCD when the group's motion since then
/// and along the sweep is rigid enough that none of them could stop it.
constexpr double kFarGap = 1.5;

/// Room for round-off in a bound on distances `distance` apart that comes from
/// the fits a and b, positions whose largest |coordinate| is `scale`: far above
/// the round-off of the fits, and above the CCD's allowance for its own.
double fits_margin(double distance, double scale, const RigidFit& a, const RigidFit& b) {
  const double moved = std::max((a.to_mean - a.from_mean).norm(), (b.to_mean - b.from_mean).norm());
  return 1e-9 * distance + 1e-12 * (scale + moved);
}

/// Is patch or region `piece` trusted in `trusted` (one flag per piece)?
bool trusted_piece(int piece, const std::vector<char>& trusted) {
  return piece >= 0 && std::size_t(piece) < trusted.size() && trusted[std::size_t(piece)];
}

/// Were the pieces of `own` trusted when the set was found (`then`) trusted
/// now? Other bodies' pieces leave none of the set's pairs out.
bool still_trusted(const std::vector<int>& own, const std::vector<char>& then, const std::vector<char>& now) {
  return std::none_of(own.begin(), own.end(), [&](int p) { return trusted_piece(p, then) && !trusted_piece(p, now); });
}

/// The longest rest edge of each primitive (rows of `primitives`) whose
/// vertices lie in different patches of one region; 0 for the others.
template <class Rows>
std::vector<double> straddling_length(const CollisionMesh& mesh, const Rows& primitives) {
  std::vector<double> out(std::size_t(primitives.rows()), 0.0);
  if (mesh.vertex_region.empty()) return out;
  for (Eigen::Index i = 0; i < primitives.rows(); ++i) {
    const int first = primitives(i, 0);
    bool straddles = false;
    for (Eigen::Index k = 1; k < primitives.cols(); ++k)
      straddles = straddles || mesh.vertex_patch[std::size_t(primitives(i, k))] != mesh.vertex_patch[std::size_t(first)];
    if (!straddles || mesh.vertex_region[std::size_t(first)] < 0) continue;
    for (Eigen::Index k = 0; k < primitives.cols(); ++k)
      for (Eigen::Index j = k + 1; j < primitives.cols(); ++j)
        out[std::size_t(i)] = std::max(out[std::size_t(i)],
                                       (mesh.rest.row(primitives(i, k)) - mesh.rest.row(primitives(i, j))).norm());
  }
  return out;
}

/// The pairs within one affine patch or convex region closer at rest than
/// `distance` plus `reach` times the longest edge of a primitive of theirs
/// that straddles patches: what a trusted patch or region must keep
/// (docs/performance.md).
Candidates at_risk_pairs(const CollisionMesh& mesh, double distance, double reach) {
  std::vector<double> face_length = straddling_length(mesh, mesh.faces);
  std::vector<double> edge_length = straddling_length(mesh, mesh.edges);
  for (std::vector<double>* lengths : {&face_length, &edge_length})
    for (double& l : *lengths) l *= reach;
  // Boxes grown by half the distance, and by a straddling primitive's length:
  // every pair found that needs to be.
  auto grow = [&](std::vector<double> length) {
    for (double& l : length) l = 0.505 * distance + 1.01 * l;
    return length;
  };
  const Candidates near =
      find_candidates_grown(mesh, mesh.rest, grow(std::vector<double>(std::size_t(mesh.num_vertices()), 0.0)),
                            grow(face_length), grow(edge_length));
  PatchExclusion all(mesh, {});  // every piece trusted, no pair at risk: excludes exactly the pairs within one piece
  all.trusted.assign(mesh.vertex_patch.size() + mesh.vertex_region.size(), 1);  // more than there are pieces
  auto row = [&](int v) -> Vec3 { return mesh.rest.row(v).transpose(); };
  auto closer = [&](double distance_sq, double length) {
    return distance_sq < (distance + length) * (distance + length);
  };
  Candidates out;
  for (const auto& c : near.point_triangle)
    if (all.excludes(c) &&
        closer(point_triangle_distance_sq(row(c.vertex), row(mesh.faces(c.face, 0)), row(mesh.faces(c.face, 1)),
                                          row(mesh.faces(c.face, 2))),
               face_length[std::size_t(c.face)]))
      out.point_triangle.push_back(c);
  for (const auto& c : near.edge_edge)
    if (all.excludes(c) &&
        closer(edge_edge_distance_sq(row(mesh.edges(c.edge_a, 0)), row(mesh.edges(c.edge_a, 1)),
                                     row(mesh.edges(c.edge_b, 0)), row(mesh.edges(c.edge_b, 1))),
               std::max(edge_length[std::size_t(c.edge_a)], edge_length[std::size_t(c.edge_b)])))
      out.edge_edge.push_back(c);
  return out;
}

/// The pairs of `c` whose first primitive belongs to `body`.
Candidates of_body(const CollisionMesh& mesh, const Candidates& c, int body) {
  Candidates out;
  for (const auto& p : c.point_triangle)
    if (mesh.vertex_body[std::size_t(p.vertex)] == body) out.point_triangle.push_back(p);
  for (const auto& p : c.edge_edge)
    if (mesh.body_of_edge(p.edge_a) == body) out.edge_edge.push_back(p);
  return out;
}

void append(Candidates& to, const Candidates& from) {
  to.point_triangle.insert(to.point_triangle.end(), from.point_triangle.begin(), from.point_triangle.end());
  to.edge_edge.insert(to.edge_edge.end(), from.edge_edge.begin(), from.edge_edge.end());
}

}  // namespace

CandidateCache::CandidateCache(double dhat, double min_skin, double max_skin, double contact_skin,
                               double ccd_stop_fraction, double patch_min_stretch, double straddle_reach)
    : dhat_(dhat),
      min_skin_(min_skin),
      max_skin_(std::max(min_skin, max_skin)),
      contact_skin_(std::min(contact_skin, min_skin)),
      ccd_stop_fraction_(ccd_stop_fraction),
      patch_min_stretch_(patch_min_stretch),
      straddle_reach_(straddle_reach) {}

int CandidateCache::rebuilds() const {
  int n = 0;
  for (const Group& g : groups_) n += g.rebuilds;
  return n;
}

void CandidateCache::make_groups(const CollisionMesh& mesh) {
  if (!groups_.empty() && mesh_vertices_ == mesh.num_vertices()) return;
  groups_.clear();
  along_generation_.clear();  // no union of the old groups is reused
  mesh_vertices_ = mesh.num_vertices();
  const double offset = mesh.max_contact_offset();
  reach_ = dhat_ + offset;
  stop_offset_ = (1.0 - ccd_stop_fraction_) * offset;
  exclusion_ = PatchExclusion{};
  const bool patches = std::any_of(mesh.vertex_patch.begin(), mesh.vertex_patch.end(), [](int p) { return p >= 0; });
  Candidates at_risk;
  if (patch_min_stretch_ > 0.0 && patches) {
    at_risk = at_risk_pairs(mesh, reach_ / patch_min_stretch_ * (1.0 + 1e-6), straddle_reach_);
    exclusion_ = PatchExclusion(mesh, at_risk);
  }
  const int bodies = mesh.vertex_body.empty() ? 1 : *std::max_element(mesh.vertex_body.begin(), mesh.vertex_body.end()) + 1;
  for (int b = 0; b < bodies; ++b) {
    if (mesh.is_rigid(b)) continue;  // its pairs never close
    Group g;
    g.body = b;
    for (int v = 0; v < mesh.num_vertices(); ++v)
      if ((mesh.vertex_body.empty() ? 0 : mesh.vertex_body[v]) == b) g.vertices.push_back(v);
    for (const std::vector<int>* piece_of : {&mesh.vertex_patch, &mesh.vertex_region})
      for (int v : g.vertices)
        if (!piece_of->empty() && (*piece_of)[std::size_t(v)] >= 0) g.pieces.push_back((*piece_of)[std::size_t(v)]);
    std::sort(g.pieces.begin(), g.pieces.end());
    g.pieces.erase(std::unique(g.pieces.begin(), g.pieces.end()), g.pieces.end());
    if (patch_min_stretch_ > 0.0 && (g.region = common_piece(mesh.vertex_region, g.vertices)) >= 0)
      g.region_pairs = of_body(mesh, at_risk, b);
    // The index ranges of the body's faces and edges (bodies are numbered in
    // blocks, so these hold few others, if any).
    int first = int(mesh.faces.rows()), last = 0;
    for (int f = 0; f < int(mesh.faces.rows()); ++f)
      if (mesh.vertex_body.empty() || mesh.body_of_face(f) == b) first = std::min(first, f), last = f + 1;
    if (first < last) g.first_face = first, g.last_face = last;
    first = int(mesh.edges.rows()), last = 0;
    for (int e = 0; e < int(mesh.edges.rows()); ++e)
      if (mesh.vertex_body.empty() || mesh.body_of_edge(e) == b) first = std::min(first, e), last = e + 1;
    if (first < last) g.first_edge = first, g.last_edge = last;
    groups_.push_back(std::move(g));
  }
  // The pairs between bodies; with a rigid body (a rack that stands still)
  // split in two: those between deforming bodies follow only them (a gripper
  // carrying a plate past the rack keeps its pairs with the plate).
  int deforming = 0;
  for (int b = 0; b < bodies; ++b) deforming += !mesh.is_rigid(b);
  const bool split = deforming > 1 && deforming < bodies;
  if (split) {
    Group among;
    among.pairs = BodyPairs::deforming;
    for (int v = 0; v < mesh.num_vertices(); ++v)
      if (!mesh.is_rigid(mesh.vertex_body[std::size_t(v)])) among.vertices.push_back(v);
    groups_.push_back(std::move(among));
  }
  if (bodies > 1) {
    Group between;
    between.pairs = split ? BodyPairs::with_rigid : BodyPairs::all;
    between.vertices.resize(std::size_t(mesh.num_vertices()));
    std::iota(between.vertices.begin(), between.vertices.end(), 0);
    groups_.push_back(std::move(between));
  }
}

void CandidateCache::replace_cached(Group& g, Candidates now) {
  const Candidates then = std::move(g.cached);
  g.cached = std::move(now);
  g.gaps.carry(then, g.cached);
  ++g.rebuilds;
}

bool CandidateCache::holds(double inflation, double scale, const RigidFit& at0, const RigidFit& at1) const {
  // Along the straight move a pair s apart at reference stays at least
  // c s - 2 deviation apart, c = cos(half the turn between the two fits); the
  // pairs left out are more than `inflation` apart there. They must stay out
  // of contact, and keep more of their distance than the CCD could stop them
  // at (at most the fraction times their distance at x0, s + 2 deviation,
  // plus the offsets' share, ccd_stop_fraction in collision_free_step.hpp).
  const double lower = half_angle_cosine(at0, at1) * inflation - 2.0 * std::max(at0.deviation, at1.deviation);
  const double margin = fits_margin(inflation, scale, at0, at1);
  return lower > reach_ + margin &&
         lower > ccd_stop_fraction_ * (inflation + 2.0 * at0.deviation) + stop_offset_ + margin;
}

bool CandidateCache::covers_move(const SharedPositions& reference, double skin, double inflation, double scale,
                                 const Group& g, const SharedPositions& x0, const SharedPositions& x1,
                                 double* deviation0) const {
  const RigidFit at0 = g.fits.follow(reference, x0, g.vertices, skin, g.turns());
  if (deviation0) *deviation0 = at0.deviation;
  if (at0.deviation > skin) return false;
  if (x1 == x0) return true;  // no pair left out is within inflation - 2 skin > dhat
  const RigidFit at1 = g.fits.follow(reference, x1, g.vertices, skin, g.turns());
  if (at1.deviation > skin) return false;
  // Within the skin after the mean translation at both ends: in the frame that
  // follows it, every pair left out has swept boxes more than dhat apart (the
  // boxes at reference, grown by the skin), so it is in no contact on the way
  // and fails the CCD's box test. After a turn, or in another frame than the
  // CCD's, the bound of `holds`.
  return (g.ccd_frame() && at0.rotation.isIdentity(0.0) && at1.rotation.isIdentity(0.0)) ||
         holds(inflation, scale, at0, at1);
}

bool CandidateCache::keeps(const Group& g, const SharedPositions& x0, const SharedPositions& x1,
                           double* deviation0) const {
  if (g.skin < 0.0 || x0->rows() != g.reference->rows() || x1->rows() != g.reference->rows()) return false;
  return covers_move(g.reference, g.skin, g.inflation, g.scale, g, x0, x1, deviation0);
}

const Candidates& CandidateCache::group_along(Group& g, const CollisionMesh& mesh, const SharedPositions& x0,
                                              const SharedPositions& x1, const std::vector<char>& trusted,
                                              bool& one_off, double* deviation0) {
  // Only a body's pairs with itself can lie in one patch.
  const bool excluding = g.body >= 0 && patch_min_stretch_ > 0.0 && !trusted.empty();
  if (trusted_piece(g.region, trusted)) {
    // The whole body is one trusted region: only its pairs at risk can come
    // close or stop the CCD, at any positions it is trusted at.
    if (!g.in_region) {
      replace_cached(g, g.region_pairs);
      g.skin = -1.0;  // no reference: once the region loses its trust, rebuilt below
      g.in_region = true;
    }
    return g.cached;
  }
  g.in_region = false;
  if (still_trusted(g.pieces, g.trusted, trusted) && keeps(g, x0, x1, deviation0)) return g.cached;
  auto find = [&](const Positions& a, const Positions& b, double inflation) {
    return g.body >= 0 ? find_candidates_within_body(mesh, a, b, inflation, g.body, &g.trees, excluding ? &exclusion_ : nullptr)
                       : find_candidates_between_bodies(mesh, a, b, inflation, &g.trees, g.pairs);
  };
  // How the group moves beyond the rigid motion that best follows it; room
  // for this sweep and a few more like it.
  RigidFit move;
  if (x1 != x0) {
    move = fit_translation(*x0, *x1, g.vertices);
    if (move.deviation > max_skin_ && g.turns()) move = fit_rigid(*x0, *x1, g.vertices, max_skin_);
  }
  const double skin = std::clamp(2.0 * move.deviation, min_skin_, max_skin_);
  // A hair more against round-off. Outside the CCD's frame the pairs left out
  // must also keep more of their distance than the CCD could stop them at
  // (holds: (1 - F) inflation > 2 (1 + F) skin, F < 0.2 leaves room for a turn).
  const double inflation = std::max(reach_ + 2.001 * skin, g.ccd_frame() ? 0.0 : 3.5 * skin);
  // Built halfway along the move, both its ends lie half its deviation from the
  // reference: one build serves the sweep and the positions at its end, where
  // Newton goes next, for moves up to twice the largest skin.
  const SharedPositions reference = x1 == x0 ? x0 : std::make_shared<const Positions>(0.5 * (*x0 + *x1));
  const double scale = reference->size() > 0 ? reference->cwiseAbs().maxCoeff() : 0.0;
  if (move.deviation <= 2.0 * max_skin_ && covers_move(reference, skin, inflation, scale, g, x0, x1, deviation0)) {
    g.skin = skin;
    g.inflation = inflation;
    g.scale = scale;
    g.reference = reference;
    g.trusted = excluding ? trusted : std::vector<char>{};
    replace_cached(g, find(*g.reference, *g.reference, inflation));
    return g.cached;
  }
  // A one-off for this sweep: the pairs whose swept boxes come within dhat in
  // the frame that follows the group's mean translation (the fits' means), or
  // else the CCD's (every vertex's).
  g.one_off = g.ccd_frame() ? find(*x0, x1->rowwise() - (move.to_mean - move.from_mean).transpose(), reach_)
                            : find(*x0, follow_mean_translation(*x0, *x1), reach_);
  one_off = true;
  return g.one_off;
}

const CandidateLists& CandidateCache::along_lists(const CollisionMesh& mesh, const Positions& x0,
                                                  const Positions& x1, const std::vector<char>& trusted) {
  const SharedPositions at0 = std::make_shared<const Positions>(x0);
  return along_lists(mesh, at0, &x1 == &x0 ? at0 : std::make_shared<const Positions>(x1), trusted);
}

const CandidateLists& CandidateCache::along_lists(const CollisionMesh& mesh, const SharedPositions& x0,
                                                  const SharedPositions& x1, const std::vector<char>& trusted) {
  make_groups(mesh);
  exclusion_.trusted = trusted;
  lists_.assign(groups_.size(), nullptr);
  std::vector<char> one_off(groups_.size(), 0);
  // The groups share nothing they change (each its own trees, gaps and sets):
  // side by side, so that one group's serial parts overlap another's work.
  parallel_for_each(groups_.size(), 1, [&](std::size_t k) {
    bool its = false;
    lists_[k] = &group_along(groups_[k], mesh, x0, x1, trusted, its);
    one_off[k] = its;
  });
  lists_one_off_ = std::find(one_off.begin(), one_off.end(), 1) != one_off.end();
  return lists_;
}

bool CandidateCache::far_pairs_cannot_stop(const Group& g, double far, double scale, const SharedPositions& x0,
                                           const SharedPositions& x1) const {
  // A pair at least `far` apart at the gaps' reference is at least
  // d0 = far - 2 since.deviation apart at x0 (a rigid motion keeps distances),
  // and along the straight move at least c d0 - 2 sweep.deviation, c the
  // cosine of half the sweep's turn (as in holds()). It cannot stop the CCD
  // while that stays above the stop fraction of its distance at x0 (for any
  // distance at least d0, as c exceeds the fraction), plus the offsets' share.
  const double room = 0.5 * far;  // neither fit can pass when it deviates more
  const RigidFit since = g.fits.follow(g.gaps.reference(), x0, g.vertices, room, g.turns());
  if (since.deviation > room) return false;
  const RigidFit sweep = g.fits.follow(x0, x1, g.vertices, room, g.turns());
  if (sweep.deviation > room) return false;
  const double c = half_angle_cosine(RigidFit{}, sweep);
  const double margin = fits_margin(far, scale, since, sweep);
  const double d0 = far - 2.0 * since.deviation - margin;
  return d0 * (c - ccd_stop_fraction_) > 2.0 * sweep.deviation + margin + stop_offset_;
}

std::vector<PairDistanceBounds> CandidateCache::distance_bounds(const CollisionMesh& mesh, const Positions& x0,
                                                                const Positions& x1) {
  const SharedPositions at0 = std::make_shared<const Positions>(x0);
  return distance_bounds(mesh, at0, &x1 == &x0 ? at0 : std::make_shared<const Positions>(x1));
}

std::vector<PairDistanceBounds> CandidateCache::distance_bounds(const CollisionMesh& mesh, const SharedPositions& x0,
                                                                const SharedPositions& x1) {
  std::vector<PairDistanceBounds> bounds(lists_.size());
  const double far = kFarGap * reach_;
  const double scale = x0->size() > 0 ? x0->cwiseAbs().maxCoeff() : 0.0;  // once for every group
  parallel_for_each(std::min(lists_.size(), groups_.size()), 1, [&](std::size_t k) {
    Group& g = groups_[k];
    if (lists_[k] != &g.cached) return;
    bounds[k] = g.gaps.bounds_at(mesh, *x0, g.cached);
    if (bounds[k] && far_pairs_cannot_stop(g, far, scale, x0, x1))
      bounds[k].set_may_stop(&g.gaps.closer_than(g.cached, far));
  });
  return bounds;
}

const Candidates& CandidateCache::along(const CollisionMesh& mesh, const Positions& x0, const Positions& x1,
                                       const std::vector<char>& trusted) {
  const SharedPositions at0 = std::make_shared<const Positions>(x0);
  return along(mesh, at0, &x1 == &x0 ? at0 : std::make_shared<const Positions>(x1), trusted);
}

const Candidates& CandidateCache::along(const CollisionMesh& mesh, const SharedPositions& x0,
                                       const SharedPositions& x1, const std::vector<char>& trusted) {
  const CandidateLists& lists = along_lists(mesh, x0, x1, trusted);
  std::vector<int> generation;
  for (const Group& g : groups_) generation.push_back(g.rebuilds);
  // Concatenated again unless it holds exactly these (cached) sets already.
  if (lists_one_off_ || along_one_off_ || generation != along_generation_) {
    along_ = Candidates{};
    for (const Candidates* c : lists) append(along_, *c);
    along_generation_ = generation;
    along_one_off_ = lists_one_off_;
  }
  return along_;
}

const Candidates& CandidateCache::group_for_contacts(Group& g, const CollisionMesh& mesh, const SharedPositions& x,
                                                     const std::vector<char>& trusted, bool& changed) {
  // A pair within dhat at x is in g.cached (which covers x) and, x being within
  // contact_skin of the last filtering (gaps.reference()) in the group's frame, was within
  // dhat + 2 contact_skin there.
  std::optional<double> since;  // how far x lies from the last filtering after the fit that follows the group
  auto near_last_filtering = [&] {
    if (!since)
      since = g.gaps.reference() && x->rows() == g.gaps.reference()->rows()
                  ? g.fits.follow(g.gaps.reference(), x, g.vertices, contact_skin_, g.turns()).deviation
                  : std::numeric_limits<double>::infinity();
    return *since <= contact_skin_;
  };
  // The last filtering lay contact_deviation from the reference after one rigid
  // motion, and x lies `since` from it after another: so x lies
  // at most their sum from the reference after the two together. While that
  // is within the skin, g.cached covers x (as keeps() would find) without
  // fitting x to the reference.
  if (g.contact_generation == g.rebuilds && g.skin >= 0.0 && !trusted_piece(g.region, trusted) &&
      still_trusted(g.pieces, g.trusted, trusted) && near_last_filtering() &&
      g.contact_deviation + *since <= g.skin)
    return g.for_contacts;
  bool one_off = false;  // stays false: a sweep from x to x has length 0
  double deviation = std::numeric_limits<double>::infinity();
  const Candidates& near = group_along(g, mesh, x, x, trusted, one_off, &deviation);
  if (g.contact_generation == g.rebuilds && near_last_filtering()) return g.for_contacts;
  changed = true;
  // A body's pairs with itself have primitives of that body only (its own
  // broad phase, or its region's pairs).
  const PrimitiveRanges own{g.first_face, g.last_face, g.first_edge, g.last_edge};
  const bool ranged = g.body >= 0 && g.last_face > g.first_face && g.last_edge > g.first_edge;
  g.for_contacts = g.gaps.within(mesh, x, near, reach_ + 2.001 * contact_skin_, ranged ? &own : nullptr);
  g.contact_deviation = deviation;
  g.contact_generation = g.rebuilds;
  return g.for_contacts;
}

const Candidates& CandidateCache::for_contacts(const CollisionMesh& mesh, const Positions& x,
                                               const std::vector<char>& trusted) {
  return for_contacts(mesh, std::make_shared<const Positions>(x), trusted);
}

const Candidates& CandidateCache::for_contacts(const CollisionMesh& mesh, const SharedPositions& x,
                                               const std::vector<char>& trusted) {
  make_groups(mesh);
  exclusion_.trusted = trusted;
  std::vector<const Candidates*> sets(groups_.size());
  std::vector<char> refiltered(groups_.size(), 0);
  parallel_for_each(groups_.size(), 1, [&](std::size_t k) {  // side by side, as in along_lists
    bool its = false;
    sets[k] = &group_for_contacts(groups_[k], mesh, x, trusted, its);
    refiltered[k] = its;
  });
  if (std::find(refiltered.begin(), refiltered.end(), 1) != refiltered.end()) {
    for_contacts_ = Candidates{};
    for (const Candidates* c : sets) append(for_contacts_, *c);
  }
  return for_contacts_;
}

}  // namespace eipc
