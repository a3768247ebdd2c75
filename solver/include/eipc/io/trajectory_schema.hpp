// Names fixed by the trajectory file format (docs/design.md §5, docs/trajectory-format.md).
// Shared by the HDF5 writer/reader and the XDMF sidecar; no HDF5 dependency.
#pragma once

#include <string>

namespace eipc::trajectory_schema {

inline constexpr const char* format = "eipc-trajectory";  ///< root attribute "format"
inline constexpr int version = 1;                         ///< root attribute "version"

inline constexpr const char* status_complete = "complete";
inline constexpr const char* status_incomplete = "incomplete";

/// Group of one body: "/bodies/<name>".
inline std::string body_group(const std::string& body) { return "/bodies/" + body; }
/// Per-body datasets, relative to the body group.
inline constexpr const char* rest_vertices = "rest_vertices";          ///< [N,3] float64, m
inline constexpr const char* surface_triangles = "surface_triangles";  ///< [T,3] int32
inline constexpr const char* tets = "tets";                            ///< [M,4] int32
inline constexpr const char* positions = "positions";                  ///< [F,N,3] float64, m
inline constexpr const char* embedding_group = "embedding";            ///< present only for reduced bodies

/// Per-frame datasets, each of shape [F].
inline constexpr const char* frames_group = "/frames";
inline constexpr const char* time = "/frames/time";
inline constexpr const char* step = "/frames/step";
inline constexpr const char* newton_iterations = "/frames/newton_iterations";
inline constexpr const char* line_search_steps = "/frames/line_search_steps";
inline constexpr const char* wall_seconds = "/frames/wall_seconds";
inline constexpr const char* min_distance = "/frames/min_distance";
inline constexpr const char* active_pairs = "/frames/active_pairs";

/// Body-pair contact forces: a pair list that grows as pairs first appear.
inline constexpr const char* contact_group = "/contact";
inline constexpr const char* contact_pairs = "/contact/pairs";                    ///< [P,2] int32 (a, b); b = -1: ground
inline constexpr const char* contact_normal_force = "/contact/normal_force";      ///< [F,P,3] float64, N
inline constexpr const char* contact_friction_force = "/contact/friction_force";  ///< [F,P,3] float64, N
inline constexpr const char* contact_pair_count = "/contact/pair_count";          ///< [F,P] int32

}  // namespace eipc::trajectory_schema
