// One CSV field as RFC 4180 writes it: quoted (quotes doubled) only where it holds a
// comma, a quote or a line break. Shared by every CSV the tools write (runs.csv,
// --pairs-out, a dataset's table).
#pragma once

#include <string>

namespace eipc {

std::string csv_field(const std::string& text);

}  // namespace eipc
