// All primitive-pair squared distances (convenience include).
#pragma once

#include "eipc/distance/distance_type.hpp"
#include "eipc/distance/edge_edge.hpp"
#include "eipc/distance/line_line.hpp"
#include "eipc/distance/point_line.hpp"
#include "eipc/distance/point_plane.hpp"
#include "eipc/distance/point_point.hpp"
#include "eipc/distance/point_triangle.hpp"
