// eipc-bullet SCENE.json: the scene in Bullet's deformable world, written as an eipc trajectory.
#include "bullet_engine.hpp"
#include "peer_run.hpp"

int main(int argc, char** argv) {
  using namespace eipc::peers;
  BulletSettings s;
  const auto add_options = [&s](CLI::App& app) {
    app.add_option("--margin", s.margin, "collision margin of soft and rigid shapes (m)")->capture_default_str()->check(CLI::PositiveNumber);
    app.add_option("--sdf-voxel", s.sdf_voxel, "voxel of the sparse SDF for node-rigid contact (m)")->capture_default_str()
        ->check(CLI::PositiveNumber);
    app.add_option("--iterations", s.iterations, "contact solver iterations per step")->capture_default_str()->check(CLI::PositiveNumber);
    app.add_option("--krylov-iterations", s.krylov_iterations, "iterations of the velocity solve per Bullet step")
        ->capture_default_str()
        ->check(CLI::PositiveNumber);
    app.add_option("--newton-iterations", s.newton_iterations, "Newton iterations of an implicit step")
        ->capture_default_str()
        ->check(CLI::PositiveNumber);
    app.add_option("--krylov-tolerance", s.krylov_tolerance, "absolute residual tolerance of the velocity solve")
        ->capture_default_str()
        ->check(CLI::PositiveNumber);
    app.add_option("--erp", s.erp, "deformable contact error reduction per step")->capture_default_str()->check(CLI::Range(0.0, 1.0));
    app.add_option("--cfm", s.cfm, "deformable contact constraint force mixing")->capture_default_str()->check(CLI::NonNegativeNumber);
    app.add_option("--max-substep", s.max_substep, "longest Bullet step (s); 0: --cfl times the explicit stability limit")
        ->capture_default_str()
        ->check(CLI::NonNegativeNumber);
    app.add_option("--cfl", s.cfl, "fraction of the explicit stability limit per Bullet step")
        ->capture_default_str()
        ->check(CLI::PositiveNumber);
    app.add_option("--implicit", s.implicit, "implicit Euler for elastic forces (true/false)")->capture_default_str();
    app.add_option("--use-projection", s.use_projection,
                   "contact by projection (true/false; default: as --implicit, like Bullet's implicit demos)");
    app.add_option("--face-contact", s.face_contact,
                   "soft faces against rigid bodies, SDF_RDF (true/false; default: as not --implicit, like Bullet's demos)");
    app.add_option("--elastic", s.elastic, "elastic force: auto (by the body's model), linear (corotated), neohookean")
        ->capture_default_str()
        ->check(CLI::IsMember({"auto", "linear", "neohookean"}));
    app.add_option("--repulsion-stiffness", s.repulsion_stiffness, "soft-soft contact repulsion stiffness (N/m)")
        ->capture_default_str()
        ->check(CLI::NonNegativeNumber);
    app.add_flag("--rigid-fingers", s.rigid_fingers,
                 "elastic bodies with prescribed vertices become kinematic rigid bodies (rigid finger pads)");
    app.add_flag("--line-search", s.line_search, "Newton line search in the implicit solve");
    app.add_flag("--self-collision", s.self_collision, "enable soft-body self contact");
    app.add_flag("--servo-pads", s.servo_pads,
                 "scripted rigid bodies (kinematic ones with a motion, --rigid-fingers' pads) as dynamic bodies driven by PD servos");
    app.add_option("--servo-kp", s.servo_kp, "servo stiffness of the pads along world x, y, z (N/m)")
        ->expected(3)
        ->capture_default_str()
        ->check(CLI::PositiveNumber);
    app.add_option("--servo-force-limit", s.servo_force_limit,
                   "limit of the pads' servo position force along world x, y, z (N; 0: unlimited)")
        ->expected(3)
        ->capture_default_str()
        ->check(CLI::NonNegativeNumber);
    app.add_option("--gripper-mass", s.gripper_mass, "mass of a servo-driven pad (kg)")
        ->capture_default_str()
        ->check(CLI::PositiveNumber);
    app.add_option("--cloth-bending-stiffness", s.cloth_bending_stiffness,
                   "a cloth's bending springs (N/m); negative: its edge springs' stiffness, Bullet's default")
        ->capture_default_str();
    app.add_option("--piece-size", s.piece_size, "grid cell of the convex decomposition of rigid shapes (m)")->capture_default_str()
        ->check(CLI::PositiveNumber);
  };
  return peer_main(argc, argv, "bullet", add_options,
                   [&s](const eipc::Scene& scene) { return make_bullet_engine(scene, s); });
}
