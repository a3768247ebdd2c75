// `eipc certify --continuous --pairs-out FILE.csv`: every colliding primitive
// pair, one per line, so a dataset's authors can find what to fix.
#include "eipc/certify/certify.hpp"
#include "eipc/io/csv_field.hpp"

#include <cstdio>

namespace eipc::certify {
namespace {

std::string index(int i) { return i >= 0 ? std::to_string(i) : std::string(); }

std::string time(double t) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", t);
  return buf;
}

}  // namespace

void write_colliding_pairs_csv(const CertifyReport& report, std::ostream& out) {
  out << "from,to,kind,body_a,vertex_a0,vertex_a1,body_b,triangle_b,vertex_b0,vertex_b1,vertex_b2,t_lo,t_hi\n";
  auto name = [&](int b) { return b >= 0 && b < static_cast<int>(report.body_names.size()) ? csv_field(report.body_names[b]) : std::string(); };
  for (const auto& m : report.motions)
    for (const MotionPair& p : m.check.colliding) {
      const char* kind = p.kind == MotionPrimitive::point_triangle ? "point_triangle"
                         : p.kind == MotionPrimitive::edge_edge    ? "edge_edge"
                                                                   : "point_ground";
      out << m.from << ',' << m.to << ',' << kind << ',' << name(p.body_a) << ',' << index(p.a[0]) << ','
          << index(p.a[1]) << ',' << (p.kind == MotionPrimitive::point_ground ? "ground" : name(p.body_b)) << ','
          << index(p.triangle_b) << ',' << index(p.b[0]) << ',' << index(p.b[1]) << ',' << index(p.b[2]) << ','
          << time(p.t_lo) << ',' << time(p.t_hi) << '\n';
    }
}

}  // namespace eipc::certify
