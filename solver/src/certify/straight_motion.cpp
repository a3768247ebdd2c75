// Interval-arithmetic tests of straight motions (see straight_motion.hpp). Arithmetic on CGAL::Interval_nt
// is valid only under Protect_FPU_rounding, set once per public call.
#include "eipc/certify/straight_motion.hpp"

#include "axis_plane_contact.hpp"
#include "eipc/certify/closest_points.hpp"
#include "interval_vectors.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace eipc::certify {
namespace {

using namespace intervals;

/// Enclosures of the four moving vertices for t in T.
std::array<IV3, 4> positions(const std::array<Vec3, 4>& x0, const std::array<Vec3, 4>& x1, const I& t) {
  return {position(x0[0], x1[0], t), position(x0[1], x1[1], t), position(x0[2], x1[2], t), position(x0[3], x1[3], t)};
}

bool strict_sign_change(const I& f0, const I& f1) {
  return (f0.sup() < 0 && f1.inf() > 0) || (f0.inf() > 0 && f1.sup() < 0);
}

/// f(t) = det(U(t), V(t), W(t)), each vector moving linearly over an interval, from the
/// end vectors: b[k] is C(3, k) times f's k-th Bernstein coefficient on the interval (a sum
/// of C(3, k) determinants of end vectors).
std::array<I, 4> scaled_bernstein(const std::array<IV3, 2>& u, const std::array<IV3, 2>& v,
                                  const std::array<IV3, 2>& w) {
  std::array<I, 4> b{I(0), I(0), I(0), I(0)};
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      const IV3 uv = cross(u[i], v[j]);
      b[i + j] += dot(uv, w[0]);
      b[i + j + 1] += dot(uv, w[1]);
    }
  return b;
}

bool one_strict_sign(std::initializer_list<I> values) {
  bool positive = true, negative = true;
  for (const I& c : values) { positive = positive && c.inf() > 0; negative = negative && c.sup() < 0; }
  return positive || negative;
}

/// Is f non-zero on all of the interval? Its Bernstein coefficients all of one strict sign
/// (outward-rounded) prove it. Contact needs coplanarity, so this proves separation.
bool never_coplanar(const std::array<I, 4>& b) { return one_strict_sign({b[0], b[1], b[2], b[3]}); }

/// Is f strictly monotone on the interval? Its derivative's Bernstein coefficients, 3 times
/// the differences of f's (here times 3 again), all of one strict sign prove it.
bool strictly_monotone(const std::array<I, 4>& b) {
  return one_strict_sign({b[1] - 3 * b[0], b[2] - b[1], 3 * b[3] - b[2]});
}

/// The three vectors x_b - x_a, x_c - x_a, x_d - x_a of the coplanarity determinant of
/// v = {a, b, c, d}, enclosed at both frames once per pair. At a time t each is
/// u0 + t (u1 - u0): still linear in t on any interval, so the cubic's Bernstein test
/// applies to its values at the interval's ends.
struct CoplanarityVectors {
  std::array<IV3, 3> d0, d1, slope;

  CoplanarityVectors(const std::array<Vec3, 4>& x0, const std::array<Vec3, 4>& x1, const std::array<int, 4>& v) {
    auto iv = [](const Vec3& a) { return IV3{I(a.x()), I(a.y()), I(a.z())}; };
    for (int k = 0; k < 3; ++k) {
      d0[k] = iv(x0[v[k + 1]]) - iv(x0[v[0]]);
      d1[k] = iv(x1[v[k + 1]]) - iv(x1[v[0]]);
      slope[k] = d1[k] - d0[k];
    }
  }

  /// The vectors at the instant t (the frames' own enclosures at t = 0 and 1).
  std::array<IV3, 3> at(double t) const {
    if (t == 0.0) return d0;
    if (t == 1.0) return d1;
    const I s(t);
    return {d0[0] + s * slope[0], d0[1] + s * slope[1], d0[2] + s * slope[2]};
  }

  /// The determinant at the instant t: zero iff the four vertices are coplanar.
  I volume(double t) const {
    const auto d = at(t);
    return dot(cross(d[0], d[1]), d[2]);
  }

  /// The cubic's scaled Bernstein coefficients on [t0, t1].
  std::array<I, 4> on(double t0, double t1) const {
    const auto a = at(t0), b = at(t1);
    return scaled_bernstein({a[0], b[0]}, {a[1], b[1]}, {a[2], b[2]});
  }

  /// Are the four vertices never coplanar for t in [t0, t1]? Contact needs coplanarity, so
  /// this proves separation on [t0, t1] however close the primitives pass (where a
  /// separating direction does not exist or is not found).
  bool never_coplanar_on(double t0, double t1) const { return never_coplanar(on(t0, t1)); }
};

/// The coplanarity cubic det(x_b - x_a, x_c - x_a, x_d - x_a)(t) of v = {a, b, c, d} in
/// plain doubles: `coefficient[k]` is C(3, k) times its k-th Bernstein coefficient on
/// [0, 1] (a sum of C(3, k) determinants of the end vectors), `permanent[k]` the same
/// sum with every product taken in absolute value.
struct CoplanarityCubic {
  std::array<double, 4> coefficient{0, 0, 0, 0}, permanent{0, 0, 0, 0};

  CoplanarityCubic(const std::array<Vec3, 4>& x0, const std::array<Vec3, 4>& x1, const std::array<int, 4>& v) {
    std::array<Vec3, 2> a, b, c;  // the three vectors from x_v0 at t = 0 and t = 1
    for (int t = 0; t < 2; ++t) {
      const std::array<Vec3, 4>& x = t ? x1 : x0;
      a[t] = x[v[1]] - x[v[0]];
      b[t] = x[v[2]] - x[v[0]];
      c[t] = x[v[3]] - x[v[0]];
    }
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j)
        for (int k = 0; k < 2; ++k) {
          const Vec3 &u = a[i], &w = b[j], &z = c[k];
          coefficient[i + j + k] += u.x() * (w.y() * z.z() - w.z() * z.y()) +
                                    u.y() * (w.z() * z.x() - w.x() * z.z()) + u.z() * (w.x() * z.y() - w.y() * z.x());
          permanent[i + j + k] += std::abs(u.x()) * (std::abs(w.y() * z.z()) + std::abs(w.z() * z.y())) +
                                  std::abs(u.y()) * (std::abs(w.z() * z.x()) + std::abs(w.x() * z.z())) +
                                  std::abs(u.z()) * (std::abs(w.x() * z.y()) + std::abs(w.y() * z.x()));
        }
  }

  /// What the four coefficients' signs are, decided in doubles: a determinant of
  /// floating-point differences of the inputs, evaluated as a cofactor expansion, errs by
  /// less than (7 + 56 eps) eps times its permanent (Shewchuk, "Adaptive precision
  /// floating-point arithmetic and fast robust geometric predicates", 1997, orient3d's
  /// errboundA, round to nearest); with the rounding of the sum of three, 32 eps times the
  /// summed permanents bounds each coefficient's error with room, under any rounding mode
  /// (each operation then errs by at most 2 eps). A coefficient is counted positive or
  /// negative only beyond that bound.
  enum class Signs {
    one,    ///< all four beyond the bound with one sign: never_coplanar_on(0, 1) holds
    mixed,  ///< two beyond the bound with opposite signs: the interval test cannot hold either
    unsure  ///< neither (or magnitudes where the relative bound does not apply): ask the intervals
  };
  Signs signs() const {
    constexpr double bound = 32 * std::numeric_limits<double>::epsilon() / 2;  // 32 eps, eps = 2^-53
    constexpr double smallest = 0x1p-900;  // far above underflow, where the relative bound holds
    int positive = 0, negative = 0;
    bool in_range = true;
    for (int k = 0; k < 4; ++k) {
      if (!(permanent[k] < 0x1p+900)) return Signs::unsure;  // also NaN, inf
      in_range = in_range && permanent[k] >= smallest;
      positive += coefficient[k] > bound * permanent[k];
      negative += coefficient[k] < -bound * permanent[k];
    }
    if (positive > 0 && negative > 0) return Signs::mixed;
    return in_range && (positive == 4 || negative == 4) ? Signs::one : Signs::unsure;
  }

  /// Approximate places in [0, 1] where the cubic vanishes or nearly touches zero: its
  /// roots (bisected in each monotone piece with a sign change) and its extrema that come
  /// within 1% of its scale of zero. Only used to place the intervals that rigorous tests
  /// then check, so their accuracy does not matter for soundness.
  std::vector<double> near_zeros() const {
    const double c0 = coefficient[0], c1 = coefficient[1], c2 = coefficient[2], c3 = coefficient[3];
    const auto f = [&](double t) { return at(t); };
    // f'(t) = a1 + 2 a2 t + 3 a3 t^2 from the monomial form a0 + a1 t + a2 t^2 + a3 t^3.
    const double a1 = -3 * c0 + c1, a2 = 3 * c0 - 2 * c1 + c2, a3 = -c0 + c1 - c2 + c3;
    std::vector<double> edges{0.0};
    const double qa = 3 * a3, qb = 2 * a2, qc = a1, disc = qb * qb - 4 * qa * qc;
    if (qa != 0 && disc >= 0) {
      const double r = std::sqrt(disc);
      for (double t : {(-qb - r) / (2 * qa), (-qb + r) / (2 * qa)})
        if (t > 0 && t < 1) edges.push_back(t);
    } else if (qa == 0 && qb != 0) {
      const double t = -qc / qb;
      if (t > 0 && t < 1) edges.push_back(t);
    }
    edges.push_back(1.0);
    std::sort(edges.begin(), edges.end());
    const double scale = std::max({std::abs(c0), std::abs(c1), std::abs(c2), std::abs(c3)});
    std::vector<double> out;
    for (std::size_t i = 0; i + 1 < edges.size(); ++i) {
      double lo = edges[i], hi = edges[i + 1];
      const double flo = f(lo), fhi = f(hi);
      if (i > 0 && std::abs(flo) <= 0.01 * scale) out.push_back(lo);  // a near-tangent extremum
      if ((flo < 0) == (fhi < 0) && flo != 0 && fhi != 0) continue;
      for (int k = 0; k < 12; ++k) {  // to 2^-12 of [0, 1]: inside the 2^-10 window
        const double mid = 0.5 * (lo + hi), fmid = f(mid);
        ((fmid < 0) == (flo < 0) && fmid != 0 ? lo : hi) = mid;
      }
      out.push_back(0.5 * (lo + hi));
    }
    return out;
  }

  /// The cubic at t, in doubles.
  double at(double t) const {
    const double s = 1 - t;
    return s * (s * (coefficient[0] * s + coefficient[1] * t) + coefficient[2] * t * t) +
           coefficient[3] * t * t * t;
  }

  /// A zero in [lo, hi] where the doubles change sign strictly between its ends, bisected
  /// in doubles (to adjacent values, or 80 halvings); NaN where they do not. An estimate only, to place the
  /// splits that rigorous tests then check.
  double zero_in(double lo, double hi) const {
    const double f_lo = at(lo), f_hi = at(hi);
    if (!((f_lo < 0 && f_hi > 0) || (f_lo > 0 && f_hi < 0))) return std::numeric_limits<double>::quiet_NaN();
    for (int k = 0; k < 80; ++k) {  // [0, 1] to adjacent doubles, but for zeros near 0
      const double mid = 0.5 * (lo + hi);
      if (!(lo < mid && mid < hi)) break;
      const double f = at(mid);
      if (f == 0) return mid;
      ((f < 0) == (f_lo < 0) ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
  }
};

/// N moving vertices; the first `na` form primitive A, the rest primitive B.
/// Built once the rounding mode is set (it encloses the coplanarity vectors).
template <int N>
struct Motion {
  const std::array<Vec3, N>& x0;
  const std::array<Vec3, N>& x1;
  int na;
  CoplanarityVectors coplanarity;

  Motion(const std::array<Vec3, N>& x0, const std::array<Vec3, N>& x1, int na, const std::array<int, 4>& order)
      : x0(x0), x1(x1), na(na), coplanarity(x0, x1, order) {}

  std::array<Vec3, N> at(double t) const {
    std::array<Vec3, N> x;
    for (int i = 0; i < N; ++i) x[i] = x0[i] + t * (x1[i] - x0[i]);
    return x;
  }

  /// Enclosures of the vertices for all t in T (computed once, tried with every direction).
  std::array<IV3, N> enclosures(const I& t) const {
    std::array<IV3, N> x;
    for (int i = 0; i < N; ++i) x[i] = position(x0[i], x1[i], t);
    return x;
  }

  /// Is n a separating direction for the vertices' enclosures `x` over T (rigorously)?
  bool separates(const Vec3& n, const std::array<IV3, N>& x) const {
    if (!n.allFinite() || n.isZero(0.0)) return false;
    double a_lo = std::numeric_limits<double>::infinity(), a_hi = -a_lo, b_lo = a_lo, b_hi = -a_lo;
    for (int i = 0; i < N; ++i) {
      const I s = I(n.x()) * x[i].x + I(n.y()) * x[i].y + I(n.z()) * x[i].z;
      if (i < na) { a_lo = std::min(a_lo, s.inf()); a_hi = std::max(a_hi, s.sup()); }
      else { b_lo = std::min(b_lo, s.inf()); b_hi = std::max(b_hi, s.sup()); }
    }
    return a_hi < b_lo || b_hi < a_lo;
  }
};

/// Is one of `directions` (taken at the middle of [t0, t1]) a separating direction for
/// all t in [t0, t1]? `dirs` is scratch space.
template <int N, class Directions>
bool separated_by_direction(const Motion<N>& m, Directions directions, double t0, double t1, std::vector<Vec3>& dirs) {
  dirs.clear();
  directions(m.at(0.5 * (t0 + t1)), dirs);
  const auto box = m.enclosures(I(t0, t1));
  for (const Vec3& n : dirs)
    if (m.separates(n, box)) return true;
  return false;
}

/// What a search of [t0, t1] found: `separated` (all of it), `collision` (no contact in
/// [t0, lo), a contact proven in [lo, hi]) or `inconclusive` (no contact in [t0, lo), then
/// an interval neither proof decided within the budget).
struct Search {
  MotionVerdict verdict;
  double lo, hi;
};

/// Bisection of [t0, t1] in time order (earlier halves first), down to `max_depth` levels
/// and `max_nodes` intervals. `separated_on(a, b)` and `collides(a, b)` are the proofs on
/// [a, b]. The intervals are examined in order and each is separated or split, so every
/// interval before the current one is separated: the first proven contact is the first
/// contact's bracket.
template <class Separated, class Collides>
Search search_in_time(double t0, double t1, int max_depth, int max_nodes, Separated separated_on, Collides collides) {
  struct Node { double t0, t1; int depth; };
  std::vector<Node> stack{{t0, t1, 0}};
  int nodes = 0;
  while (!stack.empty()) {
    const Node node = stack.back();
    stack.pop_back();
    const double mid = 0.5 * (node.t0 + node.t1);
    if (++nodes > max_nodes) return {MotionVerdict::inconclusive, node.t0, t1};
    if (separated_on(node.t0, node.t1)) continue;
    if (collides(node.t0, node.t1)) return {MotionVerdict::collision, node.t0, node.t1};
    if (node.depth >= max_depth || !(node.t0 < mid && mid < node.t1)) return {MotionVerdict::inconclusive, node.t0, t1};
    stack.push_back({mid, node.t1, node.depth + 1});
    stack.push_back({node.t0, mid, node.depth + 1});
  }
  return {MotionVerdict::separated, t1, t1};
}

bool meets_any_in_plane(const std::array<Vec3, 4>& x0, const std::array<Vec3, 4>& x1, const PlanarPointSegments& planar,
                        double t0, double t1) {
  for (int i = 0; i < planar.size; ++i)
    if (meets_in_plane(x0, x1, planar.items[i], t0, t1)) return true;
  return false;
}

/// The first contact in [lo, hi] (none before lo, one proven in [lo, hi]) narrowed by
/// splitting it at some h in (lo, hi): `contact_on(lo, h, f_h)` (f_h: the cubic at h)
/// proving a contact in [lo, h] puts the first contact there; the cubic strictly of its sign
/// at lo at h, with [lo, h] never coplanar (or the cubic proven monotone on [lo, hi]), puts
/// none there, and so does `apart(lo, h)` where the cubic's sign at lo is not strict (as
/// where the four points are coplanar throughout). One or two interval evaluations a split
/// instead of the separation and contact proofs. Any h is sound: the splits are placed first
/// at `zero` (the contact's time estimated in doubles; NaN: none) minus and plus a distance
/// growing from a few ulps, which pins a well-estimated contact in two evaluations, then
/// at the middle. Stops (leaving [lo, hi] valid) where a split decides nothing.
template <int N, class ContactOn, class Apart>
void narrow_to_first_contact(const Motion<N>& m, ContactOn contact_on, Apart apart, double zero, double& lo,
                             double& hi) {
  const I f_lo = m.coplanarity.volume(lo);
  const bool strict = f_lo.inf() > 0 || f_lo.sup() < 0, positive = f_lo.inf() > 0;
  const bool monotone = strict && strictly_monotone(m.coplanarity.on(lo, hi));
  auto cubic_apart = [&](double h, const I& f) {
    return strict && (positive ? f.inf() > 0 : f.sup() < 0) && (monotone || m.coplanarity.never_coplanar_on(lo, h));
  };
  auto split = [&](double h) {  // true if it moved an end
    if (!(lo < h && h < hi)) return false;
    const I f = m.coplanarity.volume(h);
    if (contact_on(lo, h, f)) hi = h;
    else if (strict ? cubic_apart(h, f) : apart(lo, h)) lo = h;
    else return false;
    return true;
  };
  if (std::isfinite(zero))
    for (double d = 0x1p-50 * std::max(std::abs(zero), 0x1p-20); d < hi - lo; d *= 64) {
      split(zero - d);
      split(zero + d);
      if (lo >= zero - d && hi <= zero + d) break;
    }
  for (int k = 0; k < 60; ++k)
    if (!split(0.5 * (lo + hi))) break;
}

/// The motion test's bisection: [0, 1] searched within the options' budget (an interval
/// separated by a direction or by `apart`, the pair's own proof) for a contact
/// that `cubic_contact` proves (the cubic changes sign strictly while the primitives are
/// placed so that its zeros are contacts: then narrowed by the cubic alone) or the in-plane
/// proof finds (then narrowed by that proof and the cubic while they decide, and further
/// by small searches). Such a bracket [lo, hi] is narrowed by searching its left half with a small
/// budget of its own (separated: lo moves to the middle; a contact: the bracket becomes the
/// one found; undecided: lo moves to where that search got stuck, and narrowing ends). The
/// small search, not one test of the whole half, lets the bracket narrow where the
/// primitives come so close before the contact that the half needs splitting to be
/// separated (as where they are coplanar throughout: no coplanarity test can help there).
template <int N, class Directions, class Apart, class CubicContact>
MotionVerdict bisect_in_time(const Motion<N>& m, const CoplanarityCubic& cubic, const MotionTestOptions& opt,
                             Directions directions, Apart apart, CubicContact cubic_contact,
                             const PlanarPointSegments& planar, std::array<double, 2>* first_contact) {
  std::vector<Vec3> dirs;
  auto separated_on = [&](double t0, double t1) {
    return separated_by_direction(m, directions, t0, t1, dirs) || apart(t0, t1);
  };
  auto collides = [&](double t0, double t1) {
    return meets_any_in_plane(m.x0, m.x1, planar, t0, t1) || cubic_contact(t0, t1);
  };
  const Search found = search_in_time(0.0, 1.0, opt.max_depth, opt.max_nodes, separated_on, collides);
  if (found.verdict != MotionVerdict::collision) return found.verdict;
  double lo = found.lo, hi = found.hi;
  if (cubic_contact(lo, hi)) {
    // The contacts in [lo, hi] are the cubic's zeros: a strict sign change proves one.
    const I f_lo = m.coplanarity.volume(lo);
    const auto sign_change = [&](double, double, const I& f_h) { return strict_sign_change(f_lo, f_h); };
    narrow_to_first_contact(m, sign_change, apart, cubic.zero_in(lo, hi), lo, hi);
    if (first_contact) *first_contact = {lo, hi};
    return MotionVerdict::collision;
  }
  // An in-plane contact: its point strictly inside the segment throughout [lo, hi], so a
  // strict change of side between lo and the middle proves it in the left half; narrowed by
  // that and the cubic's sign (or the pair's own proof where the cubic is zero), then by
  // small searches where that stops.
  const PlanarPointSegment* proven = nullptr;
  for (int i = 0; i < planar.size && !proven; ++i)
    if (meets_in_plane(m.x0, m.x1, planar.items[i], lo, hi)) proven = &planar.items[i];
  if (proven) {
    const int side = side_in_plane(m.x0, m.x1, *proven, lo);  // strict: the proof checked it
    const auto in_plane = [&](double, double h, const I&) { return side_in_plane(m.x0, m.x1, *proven, h) == -side; };
    narrow_to_first_contact(m, in_plane, apart, cubic.zero_in(lo, hi), lo, hi);
  }
  for (int k = 0; k < 60; ++k) {
    const double h = 0.5 * (lo + hi);
    if (!(lo < h && h < hi)) break;
    const Search left = search_in_time(lo, h, 4, 16, separated_on, collides);
    lo = left.lo;
    if (left.verdict == MotionVerdict::collision) hi = left.hi;
    if (left.verdict == MotionVerdict::inconclusive) break;
  }
  if (first_contact) *first_contact = {lo, hi};
  return MotionVerdict::collision;
}

/// Separation proven around the cubic's near zeros: each near zero t_i gets the window
/// [t_i - w, t_i + w] (w = 2^-10), proven by a separating direction there, and every gap
/// between windows is proven never coplanar. Both proofs are rigorous (interval
/// arithmetic), so only where the windows and gaps are placed is approximate; false (any
/// proof failing) leaves the pair to the bisection, which decides it as before. Most
/// pairs that pass through each other's plane without touching take this path: a few
/// interval tests instead of a bisection tree.
template <int N, class Directions>
bool separated_around_zeros(const Motion<N>& m, const CoplanarityCubic& cubic, Directions directions) {
  constexpr double w = 0x1p-10;
  const std::vector<double> zeros = cubic.near_zeros();
  if (zeros.empty()) return false;  // no zero found where the interval test saw one: let bisection look
  std::vector<Vec3> dirs;
  double start = 0.0;  // the gap [start, window's start) before each window
  for (std::size_t i = 0; i < zeros.size(); ++i) {
    const double lo = std::max(start, zeros[i] - w), hi = std::min(1.0, zeros[i] + w);
    if (lo > start && !m.coplanarity.never_coplanar_on(start, lo)) return false;
    if (hi > lo && !separated_by_direction(m, directions, lo, hi, dirs)) return false;
    start = std::max(start, hi);
  }
  return start >= 1.0 || m.coplanarity.never_coplanar_on(start, 1.0);
}

void point_triangle_directions(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c, std::vector<Vec3>& out) {
  out.push_back(p - closest_point_on_triangle(p, a, b, c));
  out.push_back((b - a).cross(c - a));
}

void edge_edge_directions(const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1, std::vector<Vec3>& out) {
  const auto [cp, cq] = closest_points_on_segments(p0, p1, q0, q1);
  out.push_back(cq - cp);
  out.push_back((p1 - p0).cross(q1 - q0));
}

}  // namespace

MotionVerdict point_triangle_motion_test(const std::array<Vec3, 4>& x0, const std::array<Vec3, 4>& x1,
                                 const MotionTestOptions& options, std::array<double, 2>* first_contact) {
  constexpr std::array<int, 4> order{1, 2, 3, 0};  // coplanarity: (b - a) x (c - a) . (p - a)
  const CoplanarityCubic cubic(x0, x1, order);
  const CoplanarityCubic::Signs signs = cubic.signs();  // in doubles, before the rounding mode is set
  if (signs == CoplanarityCubic::Signs::one) return MotionVerdict::separated;
  CGAL::Protect_FPU_rounding<true> rounding;
  const Motion<4> m(x0, x1, 1, order);
  if (signs == CoplanarityCubic::Signs::unsure && m.coplanarity.never_coplanar_on(0.0, 1.0))
    return MotionVerdict::separated;
  // A strict sign change of the coplanarity while p is strictly inside the triangle
  // throughout T: the contacts in T are the cubic's zeros there, and there is one.
  auto inside_crossing = [&](double t0, double t1) {
    if (!strict_sign_change(m.coplanarity.volume(t0), m.coplanarity.volume(t1))) return false;
    const auto [p, a, b, c] = positions(x0, x1, I(t0, t1));
    const IV3 n = cross(b - a, c - a);
    return dot(cross(b - a, p - a), n).inf() > 0 && dot(cross(c - b, p - b), n).inf() > 0 &&
           dot(cross(a - c, p - c), n).inf() > 0;
  };
  const auto directions = [](const std::array<Vec3, 4>& x, std::vector<Vec3>& out) {
    point_triangle_directions(x[0], x[1], x[2], x[3], out);
  };
  if (separated_around_zeros(m, cubic, directions)) return MotionVerdict::separated;
  // Or p proven on an edge in a coordinate plane (axis_plane_contact.hpp).
  const auto never_coplanar = [&](double t0, double t1) { return m.coplanarity.never_coplanar_on(t0, t1); };
  return bisect_in_time(m, cubic, options, directions, never_coplanar, inside_crossing,
                        planar_point_segments(x0, x1, true), first_contact);
}

MotionVerdict edge_edge_motion_test(const std::array<Vec3, 4>& x0, const std::array<Vec3, 4>& x1,
                            const MotionTestOptions& options, std::array<double, 2>* first_contact) {
  constexpr std::array<int, 4> order{0, 1, 2, 3};  // coplanarity: det(p1 - p0, q0 - p0, q1 - p0)
  const CoplanarityCubic cubic(x0, x1, order);
  const CoplanarityCubic::Signs signs = cubic.signs();  // in doubles, before the rounding mode is set
  if (signs == CoplanarityCubic::Signs::one) return MotionVerdict::separated;
  CGAL::Protect_FPU_rounding<true> rounding;
  const Motion<4> m(x0, x1, 2, order);
  if (signs == CoplanarityCubic::Signs::unsure && m.coplanarity.never_coplanar_on(0.0, 1.0))
    return MotionVerdict::separated;
  // A strict sign change of the coplanarity while the edges cross strictly inside each
  // other throughout T (contact_conditions.hpp): the contacts in T are the cubic's zeros
  // there (the lines are skew elsewhere), and there is one.
  auto inside_crossing = [&](double t0, double t1) {
    if (!strict_sign_change(m.coplanarity.volume(t0), m.coplanarity.volume(t1))) return false;
    const auto [p0, p1, q0, q1] = positions(x0, x1, I(t0, t1));
    const IV3 dp = p1 - p0, dq = q1 - q0, n = cross(dp, dq);
    return dot(cross(dp, q0 - p0), n).sup() < 0 && dot(cross(dp, q1 - p0), n).inf() > 0 &&
           dot(cross(dq, p0 - q0), n).inf() > 0 && dot(cross(dq, p1 - q0), n).sup() < 0;
  };
  const auto directions = [](const std::array<Vec3, 4>& x, std::vector<Vec3>& out) {
    edge_edge_directions(x[0], x[1], x[2], x[3], out);
  };
  // In a coordinate plane throughout the cubic is zero: the edges' own 2-D proof instead.
  const int plane = shared_plane_axis(x0, x1);
  const auto apart = [&](double t0, double t1) {
    return plane >= 0 ? edges_apart_in_plane(x0, x1, plane, t0, t1) : m.coplanarity.never_coplanar_on(t0, t1);
  };
  if (plane >= 0 ? apart(0.0, 1.0) : separated_around_zeros(m, cubic, directions)) return MotionVerdict::separated;
  if (plane >= 0 && edges_cross_in_plane(x0, x1, plane, 0.0)) {  // touching at t = 0
    if (first_contact) *first_contact = {0.0, 0.0};
    return MotionVerdict::collision;
  }
  // Or an end point proven on the other edge in a coordinate plane (axis_plane_contact.hpp).
  return bisect_in_time(m, cubic, options, directions, apart, inside_crossing,
                        planar_point_segments(x0, x1, false), first_contact);
}

}  // namespace eipc::certify
