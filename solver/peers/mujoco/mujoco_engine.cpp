#include "mujoco_engine.hpp"

#include "peer_run.hpp"
#include "rigid_geometry.hpp"

#include "eipc/dynamics/newton_solver.hpp"  // SolverFailure
#include "eipc/elasticity/material.hpp"

#include <mujoco/mujoco.h>

#include <Eigen/Geometry>
#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <fstream>
#include <map>
#include <unistd.h>

namespace eipc::peers {
namespace {

/// free: a dynamic scene body; mocap: a scripted body moved by teleporting; servo: a
/// scripted body on three slide joints tracking its keyframes with PD servos; weld: a
/// scripted body as a free body welded to a mocap target that follows the keyframes.
enum class Kind { free, mocap, servo, weld };

struct MujocoBody {
  Kind kind = Kind::free;
  int id = -1;           ///< MuJoCo body id
  int mocap = -1;        ///< mocap index (mocap: the body itself; weld: its target)
  int actuator = -1;     ///< servo: first of its six actuators (x, y, z position; x, y, z velocity)
  double mass = 0;       ///< servo, weld: its mass (its weight is compensated, as a robot's controller does)
  Vec3 origin;           ///< rest position of the body frame (centre of mass, or the motion's pivot)
  int pieces = 0;
};

/// Whether scripted motion ever rotates (sampled at the scene's steps).
bool rotates(const Motion& motion, double duration, double dt) {
  for (double t = 0; t <= duration + dt; t += dt)
    if (!motion_pose(motion, t).rotation.isIdentity(1e-12)) return true;
  return false;
}

Kind drive_kind(const std::string& drive, bool rotating) {
  if (drive == "mocap") return Kind::mocap;
  if (drive == "weld" || (drive == "auto" && rotating)) return Kind::weld;
  return Kind::servo;
}

/// MuJoCo prints warnings on stdout, where the --json summary goes: send them to stderr.
extern "C" void warn_on_stderr(const char* message) { std::fprintf(stderr, "mujoco: %s\n", message); }

std::string numbers(const Vec3& v) { return fmt::format("{:.17g} {:.17g} {:.17g}", v.x(), v.y(), v.z()); }

class MujocoEngine final : public PeerEngine {
public:
  MujocoEngine(const Scene& scene, const MujocoSettings& s) : scene_(scene), s_(s) {
    const double h = scene.params.dt;
    substeps_ = s.max_substep > 0 ? std::max(1, int(std::ceil(h / s.max_substep - 1e-9))) : 1;
    mju_user_warning = warn_on_stderr;
    const std::string xml = compose_mjcf();
    if (s.mjcf_out) std::ofstream(*s.mjcf_out) << xml;
    char path[] = "/tmp/eipc-mujoco-XXXXXX.xml";
    const int fd = mkstemps(path, 4);
    if (fd < 0) throw std::runtime_error("cannot create a temporary MJCF file");
    ::close(fd);
    std::ofstream(path) << xml;
    char error[1000] = "";
    model_ = mj_loadXML(path, nullptr, error, sizeof(error));
    std::filesystem::remove(path);
    if (!model_) throw UnsupportedFeature("mujoco", scene.path, std::string("the composed model (MuJoCo: ") + error + ")");
    data_ = mj_makeData(model_);
    for (std::size_t b = 0; b < bodies_.size(); ++b) {
      MujocoBody& mb = bodies_[b];
      mb.id = mj_name2id(model_, mjOBJ_BODY, scene.bodies[b].name.c_str());
      if (mb.kind == Kind::mocap) mb.mocap = model_->body_mocapid[mb.id];
      if (mb.kind == Kind::weld)
        mb.mocap = model_->body_mocapid[mj_name2id(model_, mjOBJ_BODY, (scene.bodies[b].name + "_target").c_str())];
      if (mb.kind == Kind::servo)
        mb.actuator = mj_name2id(model_, mjOBJ_ACTUATOR, (scene.bodies[b].name + "_px").c_str());
      if (mb.kind == Kind::free) {
        const int dof = model_->body_dofadr[mb.id];
        for (int k = 0; k < 3; ++k) data_->qvel[dof + k] = scene.bodies[b].initial_velocity(k);
      }
    }
    drive(0.0, scene.params.dt / substeps_);
    mj_forward(model_, data_);
  }

  ~MujocoEngine() override {
    if (scratch_) mj_deleteData(scratch_);
    if (data_) mj_deleteData(data_);
    if (model_) mj_deleteModel(model_);
  }

  std::string name() const override { return "mujoco"; }
  std::string version() const override { return std::string("MuJoCo ") + mj_versionString(); }

  nlohmann::json parameters() const override {
    return {{"engine", "mujoco"},
            {"dt", scene_.params.dt},
            {"substeps", substeps_},
            {"timestep", scene_.params.dt / substeps_},
            {"integrator", s_.integrator},
            {"cone", s_.cone},
            {"impratio", s_.impratio},
            {"solver", s_.solver},
            {"tolerance", s_.tolerance},
            {"iterations", s_.iterations},
            {"noslip_iterations", s_.noslip_iterations},
            {"margin", s_.margin},
            {"drive", s_.drive},
            {"servo_kp", s_.servo_kp},
            {"servo_damping_ratio", s_.servo_damping_ratio},
            {"servo_force_limit", s_.servo_force_limit},
            {"servo_armature", s_.servo_armature},
            {"gripper_mass", s_.gripper_mass},
            {"weld_solref", s_.weld_solref},
            {"contact", s_.contact},
            {"solref", solref()},
            {"solimp", solimp()},
            {"friction", {scene_.params.contact.friction, 0.005, 0.0001}},
            {"piece_size", s_.piece_size},
            {"nconmax", s_.nconmax},
            {"njmax", s_.njmax}};
  }

  nlohmann::json mapping() const override { return mapping_; }

  void step() override {
    const double h = scene_.params.dt / substeps_;
    for (int j = 1; j <= substeps_; ++j) {
      drive(step_ * scene_.params.dt + j * h, h);
      mj_step(model_, data_);
      contacts_peak_ = std::max(contacts_peak_, data_->ncon);
      constraints_peak_ = std::max(constraints_peak_, data_->nefc);
      if (data_->warning[mjWARN_CONTACTFULL].number > 0)
        throw SolverFailure(fmt::format("mujoco's contact buffer is full (nconmax {}: contacts would be dropped); "
                                        "raise --nconmax", s_.nconmax));
      if (data_->warning[mjWARN_CNSTRFULL].number > 0)
        throw SolverFailure(fmt::format("mujoco's constraint buffer is full (njmax {}: constraints would be "
                                        "dropped); raise --njmax", s_.njmax));
      if (data_->warning[mjWARN_BADQACC].number > 0 || data_->warning[mjWARN_BADQPOS].number > 0 ||
          data_->warning[mjWARN_BADQVEL].number > 0)
        throw SolverFailure("mujoco reported a bad number in qpos/qvel/qacc (it resets the state)");
    }
    ++step_;
  }

  int last_iterations() const override { return substeps_; }

  nlohmann::json usage() const override {
    return {{"contacts_peak", contacts_peak_}, {"nconmax", s_.nconmax},
            {"constraints_peak", constraints_peak_}, {"njmax", s_.njmax}};
  }

  /// MuJoCo's own penetration measure at the state stored: the least signed distance of
  /// the contacts its collision detection finds there (negative: the convex pieces overlap),
  /// NaN without contacts. mj_step detects contacts before it integrates, so its own contact
  /// list belongs to the state one step earlier: collision is run again on a scratch copy.
  double min_distance() const override {
    if (!scratch_) scratch_ = mj_makeData(model_);
    mju_copy(scratch_->qpos, data_->qpos, model_->nq);
    mju_copy(scratch_->mocap_pos, data_->mocap_pos, 3 * model_->nmocap);
    mju_copy(scratch_->mocap_quat, data_->mocap_quat, 4 * model_->nmocap);
    mj_fwdPosition(model_, scratch_);
    double d = std::numeric_limits<double>::quiet_NaN();
    for (int c = 0; c < scratch_->ncon; ++c)
      if (!(scratch_->contact[c].dist >= d)) d = scratch_->contact[c].dist;
    return d;
  }

  std::vector<Positions> fine_positions() const override {
    std::vector<Positions> out;
    for (std::size_t b = 0; b < bodies_.size(); ++b) {
      const Body& body = scene_.bodies[b];
      const MujocoBody& mb = bodies_[b];
      Mat3 r;
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) r(i, j) = data_->xmat[9 * mb.id + 3 * i + j];
      const Vec3 o(data_->xpos[3 * mb.id], data_->xpos[3 * mb.id + 1], data_->xpos[3 * mb.id + 2]);
      Positions x(body.fine_rest.rows(), 3);
      for (int i = 0; i < x.rows(); ++i) x.row(i) = (r * (body.fine_rest.row(i).transpose() - mb.origin) + o).transpose();
      out.push_back(std::move(x));
    }
    return out;
  }

  std::vector<BodyPairForce> contact_forces() const override {
    std::map<std::pair<int, int>, BodyPairForce> pairs;
    for (int c = 0; c < data_->ncon; ++c) {
      const mjContact& con = data_->contact[c];
      mjtNum f[6];
      mj_contactForce(model_, data_, c, f);
      const Vec3 n(con.frame[0], con.frame[1], con.frame[2]);
      const Vec3 t1(con.frame[3], con.frame[4], con.frame[5]), t2(con.frame[6], con.frame[7], con.frame[8]);
      // The contact frame's normal points from geom1 to geom2: this is the force on geom2.
      Vec3 normal = f[0] * n, friction = f[1] * t1 + f[2] * t2;
      int a = scene_index(model_->geom_bodyid[con.geom2]), b = scene_index(model_->geom_bodyid[con.geom1]);
      if (a == b) continue;
      if (a < 0 || (b >= 0 && b < a)) {
        std::swap(a, b);
        normal = -normal;
        friction = -friction;
      }
      BodyPairForce& p = pairs[{a, b}];
      p.body_a = a;
      p.body_b = b;
      p.normal += normal;
      p.friction += friction;
      p.pairs += 1;
    }
    std::vector<BodyPairForce> out;
    for (auto& [key, f] : pairs) out.push_back(f);
    return out;
  }

private:
  std::vector<double> solref() const {
    // MuJoCo's default (0.02 s, damping ratio 1); stiff: the shortest time constant its
    // solver keeps stable, two steps.
    if (s_.contact == "stiff") return {2 * scene_.params.dt / substeps_, 1.0};
    return {0.02, 1.0};
  }
  std::vector<double> solimp() const {
    if (s_.contact == "stiff") return {0.99, 0.999, 0.0001, 0.5, 2};
    return {0.9, 0.95, 0.001, 0.5, 2};
  }

  int scene_index(int body_id) const {
    for (std::size_t b = 0; b < bodies_.size(); ++b)
      if (bodies_[b].id == body_id) return int(b);
    return -1;  // the world body: the ground plane
  }

  /// Aims every scripted body at its keyframe pose at time t (reached over the step h):
  /// mocap bodies and weld targets are placed there, servos get the target position and
  /// the velocity that reaches it; driven bodies' weight is compensated.
  void drive(double t, double h) {
    const Vec3 g = scene_.params.gravity;
    for (std::size_t b = 0; b < bodies_.size(); ++b) {
      const MujocoBody& mb = bodies_[b];
      if (mb.kind == Kind::free) continue;
      const RigidPose pose = motion_pose(scene_.bodies[b].motion, t);
      if (mb.kind == Kind::servo || mb.kind == Kind::weld)
        for (int k = 0; k < 3; ++k) data_->xfrc_applied[6 * mb.id + k] = -mb.mass * g(k);
      if (mb.kind == Kind::servo) {
        const Vec3 velocity = (pose.translation - motion_pose(scene_.bodies[b].motion, t - h).translation) / h;
        for (int k = 0; k < 3; ++k) {
          data_->ctrl[mb.actuator + k] = pose.translation(k);
          data_->ctrl[mb.actuator + 3 + k] = velocity(k);
        }
        continue;
      }
      const Vec3 p = mb.origin + pose.translation;
      const Eigen::Quaterniond q(pose.rotation);
      for (int k = 0; k < 3; ++k) data_->mocap_pos[3 * mb.mocap + k] = p(k);
      data_->mocap_quat[4 * mb.mocap + 0] = q.w();
      data_->mocap_quat[4 * mb.mocap + 1] = q.x();
      data_->mocap_quat[4 * mb.mocap + 2] = q.y();
      data_->mocap_quat[4 * mb.mocap + 3] = q.z();
    }
  }

  std::string compose_mjcf() {
    const auto& p = scene_.params;
    std::string assets, world;
    const std::vector<double> ref = solref(), imp = solimp();
    std::string xml = fmt::format(
        "<mujoco model=\"{}\">\n  <compiler angle=\"radian\" inertiafromgeom=\"false\"/>\n"
        "  <option timestep=\"{:.17g}\" gravity=\"{}\" integrator=\"{}\" cone=\"{}\" impratio=\"{:.17g}\" "
        "solver=\"{}\" tolerance=\"{:.17g}\" iterations=\"{}\" noslip_iterations=\"{}\"/>\n"
        "  <size nconmax=\"{}\" njmax=\"{}\"/>\n"
        "  <default><geom friction=\"{:.17g} 0.005 0.0001\" solref=\"{:.17g} {:.17g}\" "
        "solimp=\"{:.17g} {:.17g} {:.17g} {:.17g} {:.17g}\" condim=\"3\" margin=\"{:.17g}\"/></default>\n",
        "eipc", p.dt / substeps_, numbers(p.gravity), s_.integrator, s_.cone, s_.impratio, s_.solver, s_.tolerance,
        s_.iterations, s_.noslip_iterations, s_.nconmax, s_.njmax, p.contact.friction, ref[0], ref[1], imp[0], imp[1], imp[2], imp[3],
        imp[4], s_.margin);
    std::string equality, actuators;
    if (p.ground_height) world += fmt::format("    <geom name=\"ground\" type=\"plane\" size=\"0 0 1\" pos=\"0 0 {:.17g}\"/>\n", *p.ground_height);
    for (std::size_t b = 0; b < scene_.bodies.size(); ++b) {
      const Body& body = scene_.bodies[b];
      MujocoBody mb;
      nlohmann::json map = {{"body", body.name}};
      std::string inertial;
      std::string joints, target;
      if (body.kinematic || !body.prescribed_nodes.empty()) {
        const bool rotating = rotates(body.motion, scene_.duration, p.dt);
        // A body without motion (the FinRay rack) is static: a mocap body that never moves.
        mb.kind = body.motion.empty() ? Kind::mocap : drive_kind(s_.drive, rotating);
        mb.origin = body.pivot;
        if (mb.kind == Kind::servo && rotating)
          throw UnsupportedFeature("mujoco", scene_.path,
                                   "body '" + body.name + "': a rotating motion with --drive servo (slide joints only; use --drive weld)");
        const std::string what = body.kinematic ? std::string("kinematic body")
                                                : "the rigid motion of its prescribed vertices";
        if (mb.kind == Kind::mocap) map["peer_model"] = "mocap body following " + what;
        if (mb.kind != Kind::mocap) {
          mb.mass = s_.gripper_mass;
          inertial = driven_inertial(body, mb);
          map["mass"] = mb.mass;
        }
        if (mb.kind == Kind::servo) {
          map["peer_model"] = "dynamic body on x, y, z slide joints, PD servos tracking " + what;
          const char* axes[] = {"1 0 0", "0 1 0", "0 0 1"};
          std::string positions, velocities;
          for (int k = 0; k < 3; ++k) {
            const std::string joint = fmt::format("{}_{}", body.name, "xyz"[k]);
            const double kv = 2 * s_.servo_damping_ratio * std::sqrt(s_.servo_kp[k] * mb.mass);
            joints += fmt::format("      <joint name=\"{}\" type=\"slide\" axis=\"{}\" armature=\"{:.17g}\"/>\n", joint,
                                  axes[k], s_.servo_armature);
            const double limit = s_.servo_force_limit[k];
            const std::string range =
                limit > 0 ? fmt::format(" forcelimited=\"true\" forcerange=\"{:.17g} {:.17g}\"", -limit, limit) : "";
            positions += fmt::format("    <position name=\"{}_p{}\" joint=\"{}\" kp=\"{:.17g}\"{}/>\n", body.name, "xyz"[k],
                                     joint, s_.servo_kp[k], range);
            velocities += fmt::format("    <velocity name=\"{}_v{}\" joint=\"{}\" kv=\"{:.17g}\"/>\n", body.name, "xyz"[k], joint, kv);
          }
          actuators += positions + velocities;  // the body's six actuators in a row: x, y, z position, then velocity
        }
        if (mb.kind == Kind::weld) {
          map["peer_model"] = "dynamic free body welded to a mocap target following " + what;
          joints = "      <freejoint/>\n";
          target = fmt::format("    <body name=\"{}_target\" pos=\"{}\" mocap=\"true\"/>\n", body.name, numbers(mb.origin));
          equality += fmt::format("    <weld body1=\"{}\" body2=\"{}_target\" solref=\"{:.17g} {:.17g}\"/>\n", body.name,
                                  body.name, s_.weld_solref[0], s_.weld_solref[1]);
        }
      } else {
        if (body.fine_tets.rows() == 0)
          throw UnsupportedFeature("mujoco", scene_.path, "body '" + body.name + "': a dynamic body without tets");
        const MassProperties mp = tet_mass_properties(body.fine_rest, body.fine_tets, body.material.density);
        mb.origin = mp.centre;
        const Mat3& I = mp.inertia;
        inertial = fmt::format("      <inertial pos=\"0 0 0\" mass=\"{:.17g}\" fullinertia=\"{:.17g} {:.17g} {:.17g} {:.17g} {:.17g} {:.17g}\"/>\n      <freejoint/>\n",
                               mp.mass, I(0, 0), I(1, 1), I(2, 2), I(0, 1), I(0, 2), I(1, 2));
        map["peer_model"] = "free rigid body";
        map["mass"] = mp.mass;
      }
      map["eipc_model"] = body.kinematic ? std::string("kinematic") : model_name(body.material.model) +
                                                                          fmt::format(" (E = {:g} Pa)", body.material.youngs);
      std::string geoms;
      for (const std::vector<int>& piece : convex_pieces(body, s_.piece_size)) {
        const std::string mesh = fmt::format("b{}p{}", b, mb.pieces++);
        std::string v;
        for (int i : piece) v += numbers(body.fine_rest.row(i).transpose() - mb.origin) + " ";
        assets += fmt::format("    <mesh name=\"{}\" vertex=\"{}\"/>\n", mesh, v);
        geoms += fmt::format("      <geom type=\"mesh\" mesh=\"{}\"/>\n", mesh);
      }
      map["parameters"] = {{"convex_pieces", mb.pieces}, {"contact", s_.contact}};
      world += target + fmt::format("    <body name=\"{}\" pos=\"{}\"{}>\n{}{}{}    </body>\n", body.name, numbers(mb.origin),
                                    mb.kind == Kind::mocap ? " mocap=\"true\"" : "", joints, inertial, geoms);
      bodies_.push_back(mb);
      mapping_.push_back(map);
    }
    if (!equality.empty()) equality = "  <equality>\n" + equality + "  </equality>\n";
    if (!actuators.empty()) actuators = "  <actuator>\n" + actuators + "  </actuator>\n";
    return xml + "  <asset>\n" + assets + "  </asset>\n  <worldbody>\n" + world + "  </worldbody>\n" + equality +
           actuators + "</mujoco>\n";
  }

  /// A driven body's inertia: its mass spread as a solid box over its rest bounding box.
  static std::string driven_inertial(const Body& body, const MujocoBody& mb) {
    const Vec3 size = body.fine_rest.colwise().maxCoeff() - body.fine_rest.colwise().minCoeff();
    const Vec3 s2 = size.cwiseProduct(size);
    const Vec3 I = mb.mass / 12 * Vec3(s2.y() + s2.z(), s2.x() + s2.z(), s2.x() + s2.y());
    return fmt::format("      <inertial pos=\"0 0 0\" mass=\"{:.17g}\" diaginertia=\"{}\"/>\n", mb.mass, numbers(I));
  }

  const Scene& scene_;
  MujocoSettings s_;
  int substeps_ = 1;
  long step_ = 0;
  int contacts_peak_ = 0, constraints_peak_ = 0;  ///< most contacts / constraint rows of any step
  mjModel* model_ = nullptr;
  mjData* data_ = nullptr;
  mutable mjData* scratch_ = nullptr;  ///< for min_distance's collision pass at the stored state
  std::vector<MujocoBody> bodies_;
  nlohmann::json mapping_ = nlohmann::json::array();
};

}  // namespace

std::unique_ptr<PeerEngine> make_mujoco_engine(const Scene& scene, const MujocoSettings& settings) {
  return std::make_unique<MujocoEngine>(scene, settings);
}

}  // namespace eipc::peers
