// Text front end to the CCD narrow phase (`eipc ccd QUERIES`).
#pragma once

#include <istream>
#include <ostream>

namespace eipc {

/// Reads one query per line, `vf,x0,y0,z0,...,x7,y7,z7` (point, triangle
/// vertices at t = 0, then the same at t = 1) or `ee,...` (edge a0 a1, edge b0 b1
/// at t = 0, then at t = 1); blank lines and lines starting with '#' are skipped.
/// Writes one line per query: `1 TOI` (may collide; TOI conservative, 17
/// significant digits) or `0`, for minimum separation 0 and tmax = 1. Uses
/// additive CCD with stop_fraction 1e-6 (fewer false positives than the solver's
/// 0.1; still conservative). With `exact`, each line continues with the exact
/// verdict (eipc/certify/exact_ccd.hpp): ` exact 1 T_LO T_HI` (touches; the first
/// contact lies in [T_LO, T_HI]) or ` exact 0` (never touches). Returns 0 (the
/// exit code); a bad line throws InputError naming its line number and the problem.
int run_ccd_queries(std::istream& in, std::ostream& out, bool exact = false);

}  // namespace eipc
