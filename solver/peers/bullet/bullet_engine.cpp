#include "bullet_engine.hpp"

#include "peer_run.hpp"
#include "rigid_geometry.hpp"

#include "eipc/dynamics/newton_solver.hpp"  // SolverFailure
#include "eipc/elasticity/lumped_mass.hpp"
#include "eipc/elasticity/material.hpp"

#include <BulletCollision/CollisionShapes/btCompoundShape.h>
#include <BulletCollision/CollisionShapes/btConvexHullShape.h>
#include <BulletSoftBody/btDeformableBodySolver.h>
#include <BulletSoftBody/btDeformableGravityForce.h>
#include <BulletSoftBody/btDeformableMultiBodyDynamicsWorld.h>
#include <BulletSoftBody/btDeformableLinearElasticityForce.h>
#include <BulletSoftBody/btDeformableMassSpringForce.h>
#include <BulletSoftBody/btDeformableNeoHookeanForce.h>
#include <BulletSoftBody/btSoftBodyHelpers.h>
#include <BulletSoftBody/btSoftBodyRigidBodyCollisionConfiguration.h>
#include <LinearMath/btDefaultMotionState.h>
#include <btBulletDynamicsCommon.h>

#include <Eigen/Eigenvalues>
#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

namespace eipc::peers {
namespace {

btVector3 btv(const Vec3& v) { return {v.x(), v.y(), v.z()}; }
Vec3 eig(const btVector3& v) { return {v.x(), v.y(), v.z()}; }
btMatrix3x3 btm(const Mat3& m) {
  return {m(0, 0), m(0, 1), m(0, 2), m(1, 0), m(1, 1), m(1, 2), m(2, 0), m(2, 1), m(2, 2)};
}
Mat3 eig(const btMatrix3x3& m) {
  Mat3 r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r(i, j) = m[i][j];
  return r;
}

enum class Kind { soft, rigid, kinematic, servo };  // servo: a rigid pad driven by PD servos (servo_pads)

/// Bullet's deformable solver with its Krylov (conjugate residual/gradient) iteration
/// limit exposed: the default, 300 iterations to an absolute 1e-8, dominated run time.
class TunedDeformableBodySolver : public btDeformableBodySolver {
public:
  void set_krylov(int iterations, double tolerance) {
    m_cr.m_maxIterations = m_cg.m_maxIterations = iterations;
    m_cr.setTolerance(tolerance);
    m_cg.setTolerance(tolerance);
  }
  /// Newton iterations of the implicit step (Bullet's default: 1).
  void set_newton(int iterations) { m_maxNewtonIterations = iterations; }
};

/// One scene body in the Bullet world.
struct BulletBody {
  Kind kind = Kind::soft;
  btSoftBody* soft = nullptr;
  btRigidBody* rigid = nullptr;
  Mat3 frame = Mat3::Identity();  ///< rigid: local axes in the rest configuration (columns)
  Vec3 origin = Vec3::Zero();     ///< rigid: rest position of the local origin
  int pieces = 0;                 ///< rigid: convex hulls in its compound shape
  std::vector<int> prescribed;    ///< soft: nodes following the body's motion (zero mass)
  double mass = 0;                ///< servo: the pad's mass
};

class BulletEngine final : public PeerEngine {
public:
  BulletEngine(const Scene& scene, const BulletSettings& s) : scene_(scene), s_(s) {
    collision_config_ = std::make_unique<btSoftBodyRigidBodyCollisionConfiguration>();
    dispatcher_ = std::make_unique<btCollisionDispatcher>(collision_config_.get());
    broadphase_ = std::make_unique<btDbvtBroadphase>();
    body_solver_ = std::make_unique<TunedDeformableBodySolver>();
    body_solver_->set_krylov(s.krylov_iterations, s.krylov_tolerance);
    body_solver_->set_newton(s.newton_iterations);
    constraint_solver_ = std::make_unique<btDeformableMultiBodyConstraintSolver>();
    constraint_solver_->setDeformableSolver(body_solver_.get());
    world_ = std::make_unique<btDeformableMultiBodyDynamicsWorld>(dispatcher_.get(), broadphase_.get(),
                                                                  constraint_solver_.get(), collision_config_.get(),
                                                                  body_solver_.get());
    world_->setImplicit(s.implicit);
    body_solver_->setImplicit(s.implicit);
    // Bullet's implicit demos (LargeDeformation.cpp, VolumetricDeformable.cpp, Collide.cpp)
    // all pair setImplicit(true) with setUseProjection(true).
    world_->setUseProjection(use_projection());
    world_->setLineSearch(s.line_search);
    body_solver_->setLineSearch(s.line_search);
    const Vec3 g = scene.params.gravity;
    world_->setGravity(btv(g));
    btSoftBodyWorldInfo& info = world_->getWorldInfo();
    info.m_gravity = btv(g);
    // Reset, not Initialize: Initialize sets the default voxel back to 0.25 m (btSparseSDF.h);
    // Bullet's demos call setDefaultVoxelsz then Reset (e.g. DeformableRigid.cpp).
    info.m_sparsesdf.setDefaultVoxelsz(s.sdf_voxel);
    info.m_sparsesdf.Reset();
    btContactSolverInfo& solver = world_->getSolverInfo();
    solver.m_deformable_erp = s.erp;
    solver.m_deformable_cfm = s.cfm;
    solver.m_deformable_maxErrorReduction = 20;
    solver.m_leastSquaresResidualThreshold = 1e-6;
    solver.m_splitImpulse = true;
    solver.m_numIterations = s.iterations;
    // Bullet multiplies the two partners' friction: sqrt(mu) each gives mu for every pair.
    friction_ = std::sqrt(scene.params.contact.friction);

    if (scene.params.ground_height) add_ground(*scene.params.ground_height);
    for (std::size_t b = 0; b < scene.bodies.size(); ++b) add_body(int(b));
    // Explicit elasticity is bounded by its stability limit; implicit steps are the scene's.
    max_substep_ = s.max_substep > 0 ? s.max_substep : s.implicit ? scene.params.dt : s.cfl * explicit_step_limit();
  }

  ~BulletEngine() override {
    for (BulletBody& b : bodies_) {
      if (b.soft) world_->removeSoftBody(b.soft);
      if (b.rigid) world_->removeRigidBody(b.rigid);
    }
    if (ground_) world_->removeRigidBody(ground_.get());
  }

  std::string name() const override { return "bullet"; }
  std::string version() const override {
    return fmt::format("Bullet {}.{} (double precision, btDeformableMultiBodyDynamicsWorld)", BT_BULLET_VERSION / 100,
                       BT_BULLET_VERSION % 100);
  }

  nlohmann::json parameters() const override {
    return {{"engine", "bullet"},
            {"world", "btDeformableMultiBodyDynamicsWorld"},
            {"dt", scene_.params.dt},
            {"implicit", s_.implicit},
            {"use_projection", use_projection()},
            {"elastic", s_.elastic},
            {"repulsion_stiffness", s_.repulsion_stiffness},
            {"rigid_fingers", s_.rigid_fingers},
            {"max_substep", max_substep_},
            {"cfl", s_.cfl},
            {"substeps", substeps()},
            {"face_contact", face_contact()},
            {"line_search", s_.line_search},
            {"margin", s_.margin},
            {"sdf_voxel", s_.sdf_voxel},
            {"sdf_voxel_in_effect", world_->getWorldInfo().m_sparsesdf.voxelsz},
            {"iterations", s_.iterations},
            {"krylov_iterations", s_.krylov_iterations},
            {"newton_iterations", s_.newton_iterations},
            {"krylov_tolerance", s_.krylov_tolerance},
            {"deformable_erp", s_.erp},
            {"deformable_cfm", s_.cfm},
            {"self_collision", s_.self_collision},
            {"servo_pads", s_.servo_pads},
            {"servo_kp", s_.servo_kp},
            {"servo_force_limit", s_.servo_force_limit},
            {"gripper_mass", s_.gripper_mass},
            {"friction_per_object", friction_},
            {"collisions", face_contact() ? "SDF_RD | SDF_RDN | SDF_RDF | VF_DD" : "SDF_RD | SDF_RDN | VF_DD"},
            {"cloth_bending_stiffness", s_.cloth_bending_stiffness},
            {"piece_size", s_.piece_size}};
  }

  nlohmann::json mapping() const override { return mapping_; }

  void step() override {
    const double h = scene_.params.dt;
    const int k = substeps();
    // Contact forces are the scene step's mean over its Bullet steps (its impulse over h): a
    // single Bullet step's reads a bouncing explicit contact at one instant (measured: twice a
    // force-limited pad's force on the cube).
    std::map<std::pair<int, int>, BodyPairForce> mean;
    for (int j = 1; j <= k; ++j) {
      substep(step_ * h + h * (j - 1) / k, step_ * h + h * j / k);
      for (const BodyPairForce& f : substep_contact_forces()) {
        BodyPairForce& m = mean[{f.body_a, f.body_b}];
        m.body_a = f.body_a;
        m.body_b = f.body_b;
        m.normal += f.normal / k;
        m.friction += f.friction / k;
        m.pairs = j == k ? f.pairs : 0;  // the contacts of the last Bullet step
      }
    }
    step_forces_.clear();
    for (const auto& [key, f] : mean) step_forces_.push_back(f);
    ++step_;
    for (const BulletBody& bb : bodies_)
      if (bb.soft)
        for (int i = 0; i < bb.soft->m_nodes.size(); ++i)
          if (!std::isfinite(bb.soft->m_nodes[i].m_x.x() + bb.soft->m_nodes[i].m_x.y() + bb.soft->m_nodes[i].m_x.z()))
            throw SolverFailure("bullet produced non-finite node positions");
  }

  int last_iterations() const override { return substeps(); }

  std::vector<Positions> fine_positions() const override {
    std::vector<Positions> out;
    for (std::size_t b = 0; b < bodies_.size(); ++b) {
      const BulletBody& bb = bodies_[b];
      const Body& body = scene_.bodies[b];
      if (bb.kind == Kind::soft) {
        Positions q(bb.soft->m_nodes.size(), 3);
        for (int i = 0; i < q.rows(); ++i) q.row(i) = eig(bb.soft->m_nodes[i].m_x).transpose();
        out.push_back(body.fine_map.apply(q));
      } else {
        btTransform tr;
        if (bb.kind == Kind::kinematic) bb.rigid->getMotionState()->getWorldTransform(tr);
        else tr = bb.rigid->getWorldTransform();
        // x = R_t * frame^T * (X - origin) + o_t
        const Mat3 r = eig(tr.getBasis()) * bb.frame.transpose();
        const Vec3 o = eig(tr.getOrigin());
        Positions x(body.fine_rest.rows(), 3);
        for (int i = 0; i < x.rows(); ++i)
          x.row(i) = (r * (body.fine_rest.row(i).transpose() - bb.origin) + o).transpose();
        out.push_back(std::move(x));
      }
    }
    return out;
  }

  std::vector<BodyPairForce> contact_forces() const override { return step_forces_; }

private:
  /// Contact forces of the last Bullet step (its impulses over its step).
  std::vector<BodyPairForce> substep_contact_forces() const {
    const double h = scene_.params.dt / substeps();
    std::map<std::pair<int, int>, BodyPairForce> pairs;
    // Force on body `a` from body `b`, stored under the ordered pair.
    const auto add = [&](int a, int b, const Vec3& normal, const Vec3& friction) {
      if (a == b || a < 0 || b < -1) return;  // self contact (or an unknown partner) has no pair entry
      const bool swap = b >= 0 && b < a;
      const std::pair<int, int> key = swap ? std::make_pair(b, a) : std::make_pair(a, b);
      BodyPairForce& f = pairs[key];
      f.body_a = key.first;
      f.body_b = key.second;
      f.normal += swap ? Vec3(-normal) : normal;
      f.friction += swap ? Vec3(-friction) : friction;
      f.pairs += 1;
    };
    // Soft-body contacts: the projection's constraints of the last step. Each stores the
    // velocity change it gave the deformable side; times that side's mass over h is the force.
    const btDeformableContactProjection& proj = body_solver_->m_objective->m_projection;
    for (int i = 0; i < proj.m_nodeRigidConstraints.size() && i < int(soft_order_.size()); ++i)
      for (int j = 0; j < proj.m_nodeRigidConstraints[i].size(); ++j) {
        const btDeformableNodeRigidContactConstraint& c = proj.m_nodeRigidConstraints[i][j];
        const auto* contact = c.getContact();
        if (contact->m_c2 <= 0) continue;  // prescribed node: no mass, no measurable force
        const double m = 1.0 / contact->m_c2;
        add(soft_order_[i], contact->m_cti.m_colObj->getUserIndex(), eig(c.m_total_normal_dv) * m / h,
            eig(c.m_total_tangent_dv) * m / h);
      }
    for (int i = 0; i < proj.m_faceRigidConstraints.size() && i < int(soft_order_.size()); ++i)
      for (int j = 0; j < proj.m_faceRigidConstraints[i].size(); ++j) {
        const btDeformableFaceRigidContactConstraint& c = proj.m_faceRigidConstraints[i][j];
        const auto* contact = c.getContact();
        if (contact->m_c2 <= 0) continue;
        const double m = 1.0 / contact->m_c2;
        add(soft_order_[i], contact->m_cti.m_colObj->getUserIndex(), eig(c.m_total_normal_dv) * m / h,
            eig(c.m_total_tangent_dv) * m / h);
      }
    for (int i = 0; i < proj.m_deformableConstraints.size(); ++i)
      for (int j = 0; j < proj.m_deformableConstraints[i].size(); ++j) {
        const btDeformableFaceNodeContactConstraint& c = proj.m_deformableConstraints[i][j];
        const auto* contact = c.getContact();
        if (contact->m_node->m_im <= 0) continue;
        const double m = 1.0 / contact->m_node->m_im;
        add(owner_of(contact->m_node), owner_of(contact->m_face->m_n[0]), eig(c.m_total_normal_dv) * m / h,
            eig(c.m_total_tangent_dv) * m / h);
      }
    // Rigid-rigid contacts: the manifolds' applied impulses (on body 0 from body 1).
    for (int k = 0; k < dispatcher_->getNumManifolds(); ++k) {
      const btPersistentManifold* mf = dispatcher_->getManifoldByIndexInternal(k);
      const int a = mf->getBody0()->getUserIndex(), b = mf->getBody1()->getUserIndex();
      for (int p = 0; p < mf->getNumContacts(); ++p) {
        const btManifoldPoint& pt = mf->getContactPoint(p);
        if (pt.getAppliedImpulse() == 0) continue;
        const Vec3 normal = eig(pt.m_normalWorldOnB) * pt.getAppliedImpulse() / h;
        const Vec3 friction = (eig(pt.m_lateralFrictionDir1) * pt.m_appliedImpulseLateral1 +
                               eig(pt.m_lateralFrictionDir2) * pt.m_appliedImpulseLateral2) / h;
        if (a >= 0) add(a, b, normal, friction);
        else add(b, a, -normal, -friction);
      }
    }
    std::vector<BodyPairForce> out;
    for (auto& [key, f] : pairs) out.push_back(f);
    return out;
  }

  bool use_projection() const { return s_.use_projection.value_or(s_.implicit); }
  bool face_contact() const { return s_.face_contact.value_or(!s_.implicit); }

  /// Bullet steps per scene step: the smallest count whose step is at most max_substep.
  int substeps() const { return std::max(1, int(std::ceil(scene_.params.dt / max_substep_ - 1e-9))); }

  /// Explicit elasticity is stable for steps below the time a pressure wave needs to
  /// cross the shortest tet edge, L_min / sqrt((lambda + 2 mu) / rho), over the soft bodies;
  /// a cloth's springs below min over nodes sqrt(2 m_i / K_i), K_i the stiffness of the
  /// node's springs (Gershgorin: omega_max^2 <= max 2 K_i / m_i, stable for h < 2 / omega_max).
  double explicit_step_limit() const {
    double limit = scene_.params.dt;
    for (std::size_t b = 0; b < bodies_.size(); ++b) {
      if (bodies_[b].kind != Kind::soft) continue;
      const Body& body = scene_.bodies[b];
      if (body.shell_thickness > 0) {
        const btSoftBody& cloth = *bodies_[b].soft;
        std::vector<double> k(cloth.m_nodes.size(), 0.0);
        for (int l = 0; l < cloth.m_links.size(); ++l) {
          const btSoftBody::Link& link = cloth.m_links[l];
          const double kl = link.m_bbending ? cloth_bending_stiffness(body) : cloth_stiffness(body);
          k[link.m_n[0] - &cloth.m_nodes[0]] += kl;
          k[link.m_n[1] - &cloth.m_nodes[0]] += kl;
        }
        for (int i = 0; i < cloth.m_nodes.size(); ++i)
          if (cloth.m_nodes[i].m_im > 0 && k[i] > 0) limit = std::min(limit, std::sqrt(2 / (cloth.m_nodes[i].m_im * k[i])));
        continue;
      }
      const Lame lame = lame_from_youngs(body.material.youngs, body.material.poisson);
      const double wave_speed = std::sqrt((lame.lambda + 2 * lame.mu) / body.material.density);
      double shortest = std::numeric_limits<double>::infinity();
      for (int e = 0; e < body.elements.rows(); ++e)
        for (int a = 0; a < 4; ++a)
          for (int c = a + 1; c < 4; ++c)
            shortest = std::min(shortest, (body.node_rest.row(body.elements(e, a)) - body.node_rest.row(body.elements(e, c))).norm());
      limit = std::min(limit, shortest / wave_speed);
    }
    return limit;
  }

  /// One Bullet step from t to t_next: kinematic bodies' motion states and prescribed
  /// nodes' velocities are aimed at their targets at t_next first.
  void substep(double t, double t_next) {
    const double h = t_next - t;
    for (std::size_t b = 0; b < bodies_.size(); ++b) {
      BulletBody& bb = bodies_[b];
      const Body& body = scene_.bodies[b];
      if (bb.kind == Kind::kinematic) {
        bb.rigid->getMotionState()->setWorldTransform(rigid_transform(b, motion_pose(body.motion, t_next)));
      } else if (bb.kind == Kind::servo) {
        drive_servo(b, t, t_next);
      } else if (bb.kind == Kind::soft) {
        // Zero-mass nodes keep their velocity through the solve: aim it at the target. The
        // implicit step restarts every node the contact solve left alone from m_vn
        // (btDeformableBodySolver::setupDeformableSolve), so set both, as btSoftBody::setVelocity does.
        for (int i : bb.prescribed) {
          btSoftBody::Node& n = bb.soft->m_nodes[i];
          const Vec3 target = body.motion.apply(t_next, body.node_rest.row(i).transpose(), body.pivot);
          n.m_v = n.m_vn = (btv(target) - n.m_x) / h;
        }
      }
    }
    world_->stepSimulation(h, 0, h);
  }

  /// A servo pad's force for the step to t_next, per world axis: kp (target - x) limited to the
  /// servo's force limit, plus critical damping toward the target's velocity (not limited). Its
  /// weight is compensated (it has no world gravity) and it does not turn (angular factor 0).
  void drive_servo(std::size_t b, double t, double t_next) {
    const BulletBody& bb = bodies_[b];
    const Body& body = scene_.bodies[b];
    const RigidPose now = motion_pose(body.motion, t), next = motion_pose(body.motion, t_next);
    if (!next.rotation.isIdentity(1e-12))
      throw UnsupportedFeature("bullet", scene_.path,
                               fmt::format("body '{}' turns at t = {:g} s: a servo pad (--servo-pads) only translates; "
                                           "use kinematic pads", body.name, t_next));
    const Vec3 x = eig(bb.rigid->getWorldTransform().getOrigin()), v = eig(bb.rigid->getLinearVelocity());
    const Vec3 target = body.pivot + next.translation, v_target = (next.translation - now.translation) / (t_next - t);
    Vec3 force;
    for (int k = 0; k < 3; ++k) {
      const double limit = s_.servo_force_limit[k], kp = s_.servo_kp[k];
      double spring = kp * (target[k] - x[k]);
      if (limit > 0) spring = std::clamp(spring, -limit, limit);
      force[k] = spring + 2 * std::sqrt(kp * bb.mass) * (v_target[k] - v[k]);
    }
    bb.rigid->activate(true);
    bb.rigid->applyCentralForce(btv(force));
  }

  void add_ground(double height) {
    // A thick box rather than btStaticPlaneShape: the soft-body contact's signed-distance
    // field only handles convex shapes (a plane gives every node distance 0).
    const double half = 1.0;
    ground_shape_ = std::make_unique<btBoxShape>(btVector3(50, 50, half));
    ground_shape_->setMargin(s_.margin);
    // Placed through the construction info, not setWorldTransform: that leaves the
    // interpolation transform at the identity, where the soft-body contact's "predict" test
    // (btSoftBody::checkDeformableContact) then looks for the ground, 1 m too high.
    btRigidBody::btRigidBodyConstructionInfo ci(0, nullptr, ground_shape_.get());
    ci.m_startWorldTransform = btTransform(btQuaternion::getIdentity(), btVector3(0, 0, height - half));
    ground_ = std::make_unique<btRigidBody>(ci);
    ground_->setFriction(friction_);
    ground_->setUserIndex(-1);
    world_->addRigidBody(ground_.get());
  }

  /// World transform of a kinematic body at a pose (its local origin is the motion's pivot).
  btTransform rigid_transform(std::size_t b, const RigidPose& pose) const {
    const Body& body = scene_.bodies[b];
    return btTransform(btm(pose.rotation), btv(body.pivot + pose.translation));
  }

  /// Convex hulls of the body's rest mesh, in the local frame (origin, axes).
  btCompoundShape* compound_shape(const Body& body, const Vec3& origin, const Mat3& axes, int& pieces) {
    auto* compound = new btCompoundShape();
    for (const std::vector<int>& piece : convex_pieces(body, s_.piece_size)) {
      auto* hull = new btConvexHullShape();
      for (int v : piece) hull->addPoint(btv(axes.transpose() * (body.fine_rest.row(v).transpose() - origin)), false);
      hull->recalcLocalAabb();
      hull->setMargin(s_.margin);
      compound->addChildShape(btTransform::getIdentity(), hull);
      shapes_.emplace_back(hull);
      ++pieces;
    }
    compound->setMargin(s_.margin);
    shapes_.emplace_back(compound);
    return compound;
  }

  void add_body(int b) {
    const Body& body = scene_.bodies[b];
    BulletBody bb;
    nlohmann::json map = {{"body", body.name}};
    const bool rigid_finger = s_.rigid_fingers && !body.kinematic && !body.prescribed_nodes.empty();
    const bool scripted = rigid_finger || (body.kinematic && !body.motion.empty());
    if (scripted && s_.servo_pads) {
      bb.kind = Kind::servo;
      bb.origin = body.pivot;
      bb.mass = s_.gripper_mass;
      btCompoundShape* shape = compound_shape(body, bb.origin, Mat3::Identity(), bb.pieces);
      btVector3 inertia;
      shape->calculateLocalInertia(bb.mass, inertia);  // unused while it cannot turn; finite for Bullet
      btRigidBody::btRigidBodyConstructionInfo ci(bb.mass, nullptr, shape, inertia);
      ci.m_startWorldTransform = rigid_transform(b, motion_pose(body.motion, 0.0));
      bb.rigid = new btRigidBody(ci);
      bb.rigid->setAngularFactor(0);
      bb.rigid->setFlags(bb.rigid->getFlags() | BT_DISABLE_WORLD_GRAVITY);  // the arm carries its weight
      bb.rigid->setActivationState(DISABLE_DEACTIVATION);
      map["eipc_model"] = rigid_finger ? "elastic with prescribed vertices (" + model_name(body.material.model) + ")"
                                       : "kinematic (scripted motion)";
      map["peer_model"] = std::string("dynamic btRigidBody (weight compensated, not turning), PD servos per world axis "
                                      "tracking ") + (rigid_finger ? "the rigid motion of its prescribed vertices" : "its motion");
      map["parameters"] = {{"convex_pieces", bb.pieces}, {"margin", s_.margin}, {"mass", bb.mass},
                           {"servo_kp", s_.servo_kp}, {"servo_force_limit", s_.servo_force_limit}};
    } else if (body.kinematic || rigid_finger) {
      bb.kind = Kind::kinematic;
      bb.origin = body.pivot;
      btCompoundShape* shape = compound_shape(body, bb.origin, Mat3::Identity(), bb.pieces);
      auto* state = new btDefaultMotionState(rigid_transform(b, motion_pose(body.motion, 0.0)));
      motion_states_.emplace_back(state);
      btRigidBody::btRigidBodyConstructionInfo ci(0, state, shape);
      bb.rigid = new btRigidBody(ci);
      bb.rigid->setCollisionFlags(bb.rigid->getCollisionFlags() | btCollisionObject::CF_KINEMATIC_OBJECT);
      bb.rigid->setActivationState(DISABLE_DEACTIVATION);
      map["eipc_model"] = rigid_finger ? "elastic with prescribed vertices (" + model_name(body.material.model) + ")"
                          : body.motion.empty() ? "static (kinematic, no motion)" : "kinematic (scripted motion)";
      map["peer_model"] = rigid_finger ? "rigid finger pad: kinematic btRigidBody following the rigid motion of its prescribed vertices"
                                       : "kinematic btRigidBody moved through its motion state";
      map["parameters"] = {{"convex_pieces", bb.pieces}, {"margin", s_.margin}};
    } else if (body.material.model == ElasticModel::abd) {
      if (!body.prescribed_nodes.empty())
        throw UnsupportedFeature("bullet", scene_.path,
                                 "body '" + body.name + "': prescribed vertices on an abd body (Bullet: a rigid body)");
      bb.kind = Kind::rigid;
      const MassProperties mp = tet_mass_properties(body.fine_rest, body.fine_tets, body.material.density);
      Eigen::SelfAdjointEigenSolver<Mat3> es(mp.inertia);
      bb.frame = es.eigenvectors();
      if (bb.frame.determinant() < 0) bb.frame.col(2) *= -1;
      bb.origin = mp.centre;
      btCompoundShape* shape = compound_shape(body, bb.origin, bb.frame, bb.pieces);
      auto* state = new btDefaultMotionState(btTransform(btm(bb.frame), btv(bb.origin)));
      motion_states_.emplace_back(state);
      btRigidBody::btRigidBodyConstructionInfo ci(mp.mass, state, shape, btv(es.eigenvalues()));
      bb.rigid = new btRigidBody(ci);
      bb.rigid->setLinearVelocity(btv(body.initial_velocity));
      bb.rigid->setActivationState(DISABLE_DEACTIVATION);
      map["eipc_model"] = "abd (affine body, E = " + fmt::format("{:g}", body.material.youngs) + " Pa)";
      map["peer_model"] = "btRigidBody (compound of convex hulls)";
      map["parameters"] = {{"mass", mp.mass}, {"convex_pieces", bb.pieces}, {"margin", s_.margin}};
    } else if (body.shell_thickness > 0) {
      bb.kind = Kind::soft;
      add_cloth(body, bb, map);
    } else {
      bb.kind = Kind::soft;
      add_soft(body, bb, map);
    }
    if (bb.rigid) {
      bb.rigid->setFriction(friction_);
      bb.rigid->setUserIndex(b);
      world_->addRigidBody(bb.rigid);
      rigid_bodies_.emplace_back(bb.rigid);
    }
    bodies_.push_back(bb);
    mapping_.push_back(map);
  }

  void add_soft(const Body& body, BulletBody& bb, nlohmann::json& map) {
    const int n = body.num_nodes();
    std::vector<btVector3> x(n);
    std::vector<btScalar> mass(n, 0.0);
    for (int i = 0; i < n; ++i) x[i] = btv(body.node_rest.row(i).transpose());
    for (int e = 0; e < body.elements.rows(); ++e)
      for (int k = 0; k < 4; ++k) mass[body.elements(e, k)] += body.material.density * body.element_volumes(e) / 4;
    bb.prescribed = body.prescribed_nodes;
    for (int i : bb.prescribed) mass[i] = 0;  // driven, not dynamic
    btSoftBody* psb = new btSoftBody(&world_->getWorldInfo(), n, x.data(), mass.data());
    std::set<std::pair<int, int>> links;
    for (int e = 0; e < body.elements.rows(); ++e) {
      const auto t = body.elements.row(e);
      psb->appendTetra(t(0), t(1), t(2), t(3));
      for (int a = 0; a < 4; ++a)
        for (int c = a + 1; c < 4; ++c) links.insert({std::min(t(a), t(c)), std::max(t(a), t(c))});
    }
    for (const auto& [a, c] : links) psb->appendLink(a, c, nullptr, true);
    btSoftBodyHelpers::generateBoundaryFaces(psb);
    psb->initializeDmInverse();
    psb->m_tetraScratches.resize(psb->m_tetras.size());
    psb->m_tetraScratchesTn.resize(psb->m_tetras.size());
    add_to_world(psb, body, bb);
    const Lame lame = lame_from_youngs(body.material.youngs, body.material.poisson);
    const bool neo = s_.elastic == "neohookean" || (s_.elastic == "auto" && body.material.model == ElasticModel::neo_hookean);
    // Bullet's Neo-Hookean is the stable one of Smith et al. 2018 (btDeformableNeoHookeanForce.h:
    // its energy's (J - 1 - 3 mu / 4 lambda) term); its small-strain moduli equal the given
    // ones only for mu' = 4/3 mu, lambda' = lambda + 5/6 mu (the paper's Lame reparametrisation).
    // Bullet's linear elasticity force is corotated (its m_corotation) with Rayleigh damping
    // (alpha: mass, beta: stiffness), eipc's linear_corotated.
    const double mu = neo ? 4.0 / 3.0 * lame.mu : lame.mu, lambda = neo ? lame.lambda + 5.0 / 6.0 * lame.mu : lame.lambda;
    btDeformableLagrangianForce* elastic =
        neo ? static_cast<btDeformableLagrangianForce*>(new btDeformableNeoHookeanForce(mu, lambda, body.rayleigh_beta))
            : new btDeformableLinearElasticityForce(mu, lambda, 0.0, body.rayleigh_beta);
    add_forces(psb, elastic);
    map["eipc_model"] = fmt::format("{} (E = {:g} Pa, nu = {:g}, rho = {:g} kg/m^3, rayleigh_beta = {:g} s), embedding {}",
                                    model_name(body.material.model), body.material.youngs, body.material.poisson,
                                    body.material.density, body.rayleigh_beta, body.embedding);
    map["peer_model"] = std::string("btSoftBody tet mesh with ") +
                        (neo ? "btDeformableNeoHookeanForce (moduli matched at small strain)" : "btDeformableLinearElasticityForce (corotated)") +
                        std::string(bb.prescribed.empty() ? "" : "; prescribed nodes: zero mass, velocity aimed at the target");
    map["parameters"] = {{"nodes", n},          {"tets", body.elements.rows()}, {"mu", mu},
                         {"lambda", lambda}, {"damping", body.rayleigh_beta}, {"prescribed_nodes", bb.prescribed.size()},
                         {"margin", s_.margin}};
  }

  /// The shells' (cloth's) springs: E t along every triangle edge, so a square grid's axial
  /// springs give the sheet eipc's membrane stiffness along its axes (N = E t strain; the
  /// diagonals stiffen it further and Poisson's ratio has no counterpart).
  static double cloth_stiffness(const Body& body) { return body.material.youngs * body.shell_thickness; }
  double cloth_bending_stiffness(const Body& body) const {
    return s_.cloth_bending_stiffness >= 0 ? s_.cloth_bending_stiffness : cloth_stiffness(body);
  }

  /// A shell as Bullet's cloth, as its cloth demos build one (DeformableSelfCollision.cpp,
  /// ClothFriction.cpp): a btSoftBody on the sheet's triangles with a spring per edge, bending
  /// springs across two links (generateBendingConstraints(2)) and btDeformableMassSpringForce;
  /// lumped masses rho t A / 3 as eipc's.
  void add_cloth(const Body& body, BulletBody& bb, nlohmann::json& map) {
    if (body.embedding != "full")
      throw UnsupportedFeature("bullet", scene_.path,
                               "body '" + body.name + "': embedding '" + body.embedding + "' (Bullet's cloth is the full sheet)");
    const int n = body.num_nodes();
    std::vector<btVector3> x(n);
    for (int i = 0; i < n; ++i) x[i] = btv(body.node_rest.row(i).transpose());
    const VecX m = shell_lumped_mass(body.node_rest, body.shell_elements, body.shell_thickness, body.material.density);
    std::vector<btScalar> mass(m.data(), m.data() + n);
    bb.prescribed = body.prescribed_nodes;
    for (int i : bb.prescribed) mass[i] = 0;
    btSoftBody* psb = new btSoftBody(&world_->getWorldInfo(), n, x.data(), mass.data());
    for (int t = 0; t < body.shell_elements.rows(); ++t) {
      const auto f = body.shell_elements.row(t);
      psb->appendFace(f(0), f(1), f(2));
      for (int a = 0; a < 3; ++a) psb->appendLink(f(a), f((a + 1) % 3), nullptr, true);
    }
    const int edges = psb->m_links.size();
    psb->generateBendingConstraints(2);
    add_to_world(psb, body, bb);
    const double k = cloth_stiffness(body), kb = cloth_bending_stiffness(body), damping = body.rayleigh_beta * k;
    add_forces(psb, new btDeformableMassSpringForce(k, damping, true, kb));
    map["eipc_model"] = fmt::format("stvk_shell (E = {:g} Pa, nu = {:g}, rho = {:g} kg/m^3, thickness = {:g} m, "
                                    "rayleigh_beta = {:g} s)", body.material.youngs, body.material.poisson,
                                    body.material.density, body.shell_thickness, body.rayleigh_beta);
    map["peer_model"] = "btSoftBody cloth: btDeformableMassSpringForce on the triangle edges (E t) and bending springs "
                        "across two links (generateBendingConstraints(2))";
    map["parameters"] = {{"nodes", n}, {"triangles", body.shell_elements.rows()}, {"edge_springs", edges},
                         {"bending_springs", psb->m_links.size() - edges}, {"stiffness", k}, {"bending_stiffness", kb},
                         {"damping", damping}, {"prescribed_nodes", bb.prescribed.size()}, {"margin", s_.margin}};
  }

  /// What every soft body (tet body or cloth) shares: its velocities, contact settings and place
  /// in the world.
  void add_to_world(btSoftBody* psb, const Body& body, BulletBody& bb) {
    bb.soft = psb;
    // m_vn too: the implicit step starts from it (see substep).
    for (int i = 0; i < psb->m_nodes.size(); ++i) psb->m_nodes[i].m_v = psb->m_nodes[i].m_vn = btv(body.initial_velocity);
    for (int i : bb.prescribed) psb->m_nodes[i].m_v = psb->m_nodes[i].m_vn = btVector3(0, 0, 0);
    psb->getCollisionShape()->setMargin(s_.margin);
    psb->m_cfg.kKHR = 1;  // contact hardness against kinematic and rigid bodies
    psb->m_cfg.kCHR = 1;
    psb->m_cfg.kDF = friction_;
    psb->m_cfg.drag = 0;
    // Implicit steps without SDF_RDF, as Bullet's implicit demos (VolumetricDeformable.cpp:
    // SDF_RD | SDF_RDN): the projection pins all three nodes of a face touching a rigid body
    // at their explicitly predicted velocity, and a resting cube then collapses (docs/peers.md).
    psb->m_cfg.collisions = btSoftBody::fCollision::SDF_RD | btSoftBody::fCollision::SDF_RDN | btSoftBody::fCollision::VF_DD;
    if (face_contact()) psb->m_cfg.collisions |= btSoftBody::fCollision::SDF_RDF;
    psb->setSelfCollision(s_.self_collision);
    psb->m_repulsionStiffness = s_.repulsion_stiffness;  // what btSoftBody::setSpringStiffness sets (demos: 2-10)
    psb->m_sleepingThreshold = 0;
    psb->setUserIndex(int(bodies_.size()));
    world_->addSoftBody(psb);
  }

  /// The body's elastic force and gravity; the body becomes the next soft body.
  void add_forces(btSoftBody* psb, btDeformableLagrangianForce* elastic) {
    auto* gravity = new btDeformableGravityForce(btv(scene_.params.gravity));
    forces_.emplace_back(elastic);
    forces_.emplace_back(gravity);
    world_->addForce(psb, elastic);
    world_->addForce(psb, gravity);
    soft_bodies_.emplace_back(psb);
    soft_order_.push_back(int(bodies_.size()));
    soft_nodes_.push_back({&psb->m_nodes[0], &psb->m_nodes[0] + psb->m_nodes.size()});
  }

  int owner_of(const btSoftBody::Node* node) const {
    for (std::size_t k = 0; k < soft_nodes_.size(); ++k)
      if (node >= soft_nodes_[k].first && node < soft_nodes_[k].second) return soft_order_[k];
    return -2;
  }

  const Scene& scene_;
  BulletSettings s_;
  double friction_ = 0;
  double max_substep_ = 0;  ///< the Bullet step bound in use (given, or from the CFL condition)
  long step_ = 0;
  std::vector<BodyPairForce> step_forces_;  ///< the last scene step's contact forces (mean over its Bullet steps)
  std::unique_ptr<btSoftBodyRigidBodyCollisionConfiguration> collision_config_;
  std::unique_ptr<btCollisionDispatcher> dispatcher_;
  std::unique_ptr<btDbvtBroadphase> broadphase_;
  std::unique_ptr<TunedDeformableBodySolver> body_solver_;
  std::unique_ptr<btDeformableMultiBodyConstraintSolver> constraint_solver_;
  std::unique_ptr<btDeformableMultiBodyDynamicsWorld> world_;
  std::unique_ptr<btBoxShape> ground_shape_;
  std::unique_ptr<btRigidBody> ground_;
  std::vector<std::unique_ptr<btCollisionShape>> shapes_;
  std::vector<std::unique_ptr<btMotionState>> motion_states_;
  std::vector<std::unique_ptr<btRigidBody>> rigid_bodies_;
  std::vector<std::unique_ptr<btDeformableLagrangianForce>> forces_;
  std::vector<std::unique_ptr<btSoftBody>> soft_bodies_;
  std::vector<BulletBody> bodies_;
  std::vector<int> soft_order_;  ///< scene body index of each soft body, in the order added
  std::vector<std::pair<const btSoftBody::Node*, const btSoftBody::Node*>> soft_nodes_;
  nlohmann::json mapping_ = nlohmann::json::array();
};

}  // namespace

std::unique_ptr<PeerEngine> make_bullet_engine(const Scene& scene, const BulletSettings& settings) {
  return std::make_unique<BulletEngine>(scene, settings);
}

}  // namespace eipc::peers
