// The IPC log barrier on the unsquared distance d (docs/design.md §3).
#pragma once

namespace eipc {

/// b(d) = -(d - dhat)^2 ln(d / dhat) for 0 < d < dhat, 0 for d >= dhat.
/// For d <= 0 (an intersecting state the solver never accepts) it returns +infinity so
/// a line search can never step there.
double barrier(double d, double dhat);
/// b'(d) = -2 (d - dhat) ln(d/dhat) - (d - dhat)^2 / d   (0 for d >= dhat)
double barrier_first_derivative(double d, double dhat);
/// b''(d) = -2 ln(d/dhat) - 4 (d - dhat)/d + (d - dhat)^2 / d^2   (0 for d >= dhat)
double barrier_second_derivative(double d, double dhat);

/// The barrier b(d - o) at a contact offset o (docs/design.md, "Contact
/// offset") as a function of s = d^2 (chain rule through d = sqrt(s)):
/// db/ds = b'(d - o) / (2d),  d^2b/ds^2 = (b''(d - o) - b'(d - o)/d) / (4 d^2).
double barrier_sq_first_derivative(double s, double dhat, double offset = 0.0);
double barrier_sq_second_derivative(double s, double dhat, double offset = 0.0);

}  // namespace eipc
