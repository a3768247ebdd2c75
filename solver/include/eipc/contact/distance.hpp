// All primitive-pair squared distances (convenience include).
#pragma once

#include "eipc/contact/distance_type.hpp"
#include "eipc/contact/edge_edge_distance.hpp"
#include "eipc/contact/line_line_distance.hpp"
#include "eipc/contact/point_line_distance.hpp"
#include "eipc/contact/point_plane_distance.hpp"
#include "eipc/contact/point_point_distance.hpp"
#include "eipc/contact/point_triangle_distance.hpp"
