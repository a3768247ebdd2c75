// A core file that breaks the layering (fixture of the layering check).
#include "eipc/io/trajectory.hpp"
