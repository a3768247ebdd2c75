// IPC's smoothed static-dynamic friction transition (paper, Frictional Contact),
// with e = eps_v h the tangential-displacement threshold (metres).
#pragma once

namespace eipc {

/// f1(y) = -y^2/e^2 + 2y/e for y < e, else 1
double friction_f1(double y, double e);
/// f0(y) = -y^3/(3e^2) + y^2/e + e/3 for y < e, else y   (f0' = f1, f0(e) = e)
double friction_f0(double y, double e);
/// f1(y)/y = (2 - y/e)/e for y < e, else 1/y   (finite at y = 0: 2/e)
double friction_f1_over_y(double y, double e);
/// (f1(y)/y)' / y = -1/(e^2 y) for y < e, else -1/y^3   (only used with u u^T, |u| = y > 0)
double friction_f1_over_y_derivative_over_y(double y, double e);

}  // namespace eipc
