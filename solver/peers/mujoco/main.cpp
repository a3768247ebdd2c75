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
    app.add_option("--drive", s.drive,
                   "scripted bodies: servo (slide joints, PD servos), weld (welded to a mocap target), mocap, "
                   "auto (servo unless the motion rotates)")
        ->capture_default_str()
        ->check(CLI::IsMember({"auto", "servo", "weld", "mocap"}));
    app.add_option("--servo-kp", s.servo_kp, "servo stiffness along world x, y, z (N/m)")
        ->expected(3)
        ->capture_default_str()
        ->check(CLI::PositiveNumber);
    app.add_option("--servo-damping-ratio", s.servo_damping_ratio, "servo damping ratio")
        ->capture_default_str()
        ->check(CLI::NonNegativeNumber);
    app.add_option("--servo-force-limit", s.servo_force_limit,
                   "force limit of the servos' position actuators along world x, y, z (N; 0: unlimited)")
        ->expected(3)
        ->capture_default_str()
        ->check(CLI::NonNegativeNumber);
    app.add_option("--servo-armature", s.servo_armature, "armature of the servos' slide joints (kg)")
        ->capture_default_str()
        ->check(CLI::NonNegativeNumber);
    app.add_option("--gripper-mass", s.gripper_mass, "mass of each servo- or weld-driven body (kg)")
        ->capture_default_str()
        ->check(CLI::PositiveNumber);
    app.add_option("--weld-solref", s.weld_solref, "weld constraint solref: timeconst dampratio")
        ->expected(2)
        ->capture_default_str()
        ->check(CLI::PositiveNumber);
    app.add_option("--cone", s.cone, "friction cone")->capture_default_str()->check(CLI::IsMember({"elliptic", "pyramidal"}));
    app.add_option("--impratio", s.impratio, "frictional-to-normal impedance ratio")
        ->capture_default_str()
        ->check(CLI::PositiveNumber);
    app.add_option("--solver", s.solver, "constraint solver")->capture_default_str()->check(CLI::IsMember({"Newton", "CG", "PGS"}));
    app.add_option("--integrator", s.integrator, "integrator")
        ->capture_default_str()
        ->check(CLI::IsMember({"implicit", "Euler", "RK4"}));
    app.add_option("--solver-iterations", s.iterations, "main solver iterations")->capture_default_str()->check(CLI::PositiveNumber);
    app.add_option("--tolerance", s.tolerance, "main solver tolerance")->capture_default_str()->check(CLI::PositiveNumber);
    app.add_option("--noslip-iterations", s.noslip_iterations, "noslip solver iterations (0: off)")
        ->capture_default_str()
        ->check(CLI::NonNegativeNumber);
    app.add_option("--margin", s.margin, "geom margin (m): contacts become active this far apart")
        ->capture_default_str()
        ->check(CLI::NonNegativeNumber);
    app.add_option("--max-substep", s.max_substep, "longest MuJoCo step (s); 0: the scene's dt")
        ->capture_default_str()
        ->check(CLI::NonNegativeNumber);
    app.add_option("--piece-size", s.piece_size, "grid cell of the convex decomposition (m)")
        ->capture_default_str()
        ->check(CLI::PositiveNumber);
    app.add_option("--nconmax", s.nconmax, "contact buffer (MJCF size/nconmax); a full buffer ends the run")
        ->capture_default_str()
        ->check(CLI::PositiveNumber);
    app.add_option("--njmax", s.njmax, "constraint buffer (MJCF size/njmax); a full buffer ends the run")
        ->capture_default_str()
        ->check(CLI::PositiveNumber);
    app.add_option("--mjcf-out", s.mjcf_out, "also write the composed MJCF model to this file");
  };
  return peer_main(argc, argv, "mujoco", add_options,
                   [&s](const eipc::Scene& scene) { return make_mujoco_engine(scene, s); });
}
