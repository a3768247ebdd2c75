// eipc-mujoco SCENE.json: the scene's bodies as MuJoCo rigid bodies, written as an eipc trajectory.
#include "mujoco_engine.hpp"
#include "peer_run.hpp"

int main(int argc, char** argv) {
  using namespace eipc::peers;
  MujocoSettings s;
  const auto add_options = [&s](CLI::App& app) {
    app.add_option("--contact", s.contact, "contact model: soft (MuJoCo's default) or stiff")
        ->capture_default_str()
        ->check(CLI::IsMember({"soft", "stiff"}));
    app.add_option("--max-substep", s.max_substep, "longest MuJoCo step (s); 0: the scene's dt")
        ->capture_default_str()
        ->check(CLI::NonNegativeNumber);
    app.add_option("--piece-size", s.piece_size, "grid cell of the convex decomposition (m)")
        ->capture_default_str()
        ->check(CLI::PositiveNumber);
    app.add_option("--mjcf-out", s.mjcf_out, "also write the composed MJCF model to this file");
  };
  return peer_main(argc, argv, "mujoco", add_options,
                   [&s](const eipc::Scene& scene) { return make_mujoco_engine(scene, s); });
}
