"""Writes results/resolution.md (to stdout) from the run summaries in DIR
(results/resolution/<mesh>_<embedding>.json, made by scenarios/resolution/run)."""
import glob
import json
import os
import subprocess
import sys

PHASES = ["assembly", "broad_phase", "ccd", "linear_solve", "line_search"]
MESHES = ["0k4", "5k", "50k"]

runs, stopped = {}, {}
for path in glob.glob(os.path.join(sys.argv[1], "*.json")):
    r = json.load(open(path))
    (stopped if "stopped_after_wall_seconds" in r else runs)[(r["mesh"], r["embedding"])] = r
SCENE_STEPS = 10
limited = {k: r["summary"]["steps"] for k, r in runs.items() if r["summary"]["steps"] < SCENE_STEPS}
common = min(limited.values()) if limited else None


def cpu_share(r):
    """Fraction of wall time the (single-threaded) run got a core: CPU / wall of the process."""
    return r["cpu_seconds"] / r["summary"]["wall_seconds"]


def per_step_cpu(r):
    """CPU seconds per step: the steps' wall time scaled by the process's CPU share."""
    return sum(r["per_step"]["wall_seconds"]) * cpu_share(r) / r["summary"]["steps"]


def phases_ms(r):
    s, k = r["summary"], cpu_share(r) * 1e3 / r["summary"]["steps"]
    p = {name: s["phase_seconds"][name] * k for name in PHASES}
    p["other"] = per_step_cpu(r) * 1e3 - sum(p.values())
    return p


def environment():
    """CPU, cores, the BLAS CHOLMOD runs on, and the commit (where the report is made: the same machine)."""
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    blas = os.path.realpath("/usr/lib/x86_64-linux-gnu/libblas.so.3")
    here = os.path.dirname(os.path.abspath(__file__))
    commit = subprocess.run(["git", "-C", here, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    return f"{cpu}, {os.cpu_count()} cores; BLAS used by CHOLMOD: `{blas}`; scripts at commit {commit or '?'}"


def fmt(x):
    return f"{x:.3g}" if abs(x) < 1000 else f"{x:.0f}"


out = []
w = out.append
w("# Resolution study: embedded vs full-space cost as the fine mesh grows\n")
w("Made by `scenarios/resolution/run` (scenes `scenarios/resolution/sphere_{0k4,5k,50k}.json`); do not edit by hand.\n")
w("**Scene.** A ball of radius 0.05 m (linear corotated, E = 1e5 Pa, nu = 0.4, 1000 kg/m^3) released "
  "1.5 mm above the ground, squeezed between two kinematic plates that start 0.7 mm from it and move "
  "5 mm inwards each over 0.1 s (h = 0.01 s, kappa = 1e4, dhat = 1 mm, friction 0.5, newton_tol 1e-5). "
  "The ball touches the ground and both plates from the first steps on. Fine meshes: "
  "`scenarios/assets/generated/sphere_{0k4,5k,50k}.msh` (the 50k one made on demand by `make_assets`). "
  "Embedded runs use one fixed lattice embedding of 36 vertices / 72 tets (`eipc embed sphere_50k.msh "
  "--vertices 35`, `scenarios/resolution/sphere_emb35.msh`) for all three meshes.\n")
notes = []
for (m, e), n in sorted(limited.items()):
    notes.append(f"**the full-space {m} run is limited to its first {n} step(s)**")
for (m, e), r in sorted(stopped.items()):
    notes.append(f"**the full-space {m} run did not finish its first step**: it was stopped after "
                 f"{r['stopped_after_wall_seconds']:.0f} s wall having used {r['cpu_seconds']:.0f} CPU s "
                 f"(load average {r['load_average_at_start']:.1f} at its start), so one of its steps costs more than that")
w("**How measured.** `nice eipc run --threads 1 --json` per run. The machine has 2 cores shared with other "
  "jobs (load average at the start of each run below), so wall times are inflated by waiting; the tables give "
  "CPU seconds: each step's wall time (trajectory `frames/wall_seconds`) and each phase's wall time "
  "(`phase_seconds`) scaled by the run's CPU share (process CPU time / wall time, from `/usr/bin/time`). "
  "That assumes the waiting is spread evenly over the phases; small entries are noisy. The whole scene is 10 steps. "
  + ("Because single full-space steps take minutes here, " + "; ".join(notes) + ". " if notes else "")
  + (f"The last table compares the first {common} step(s) of every run.\n" if common else "\n"))
w(f"**Machine.** {environment()}.\n")

w("## Per step (all steps of each run)\n")
w("| fine mesh | method | fine vertices / surface vertices | DOFs | steps | Newton its / step | CPU s / step | "
  "CPU ms / Newton it | full / embedded (CPU per step) | CPU share | load avg |")
w("|---|---|---|---|---|---|---|---|---|---|---|")
for m in MESHES:
    for e in ("emb35", "full"):
        r = runs.get((m, e))
        if not r:
            continue
        s, z = r["summary"], r["size"]
        newton = s["newton_iterations_mean"]
        ratio = ""
        if e == "full" and (m, "emb35") in runs:
            ratio = f"{per_step_cpu(r) / per_step_cpu(runs[(m, 'emb35')]):.1f}x"
        w(f"| {m} | {'embedded (36 nodes)' if e == 'emb35' else 'full space'} | {z['fine_vertices']} / "
          f"{z['surface_vertices']} | {z['dofs']} | {s['steps']} | {newton:.1f} | {fmt(per_step_cpu(r))} | "
          f"{fmt(per_step_cpu(r) * 1e3 / newton)} | {ratio} | {cpu_share(r):.2f} | {r['load_average_at_start']:.1f} |")

w("\n## Where the time goes (CPU ms per step)\n")
w("assembly = gradient + Hessian: elasticity on the simulation tets, barrier and friction on the fine "
  "surface, and the pull-back J^T g, J^T H J; broad phase = candidate pairs (barrier and swept CCD boxes) on the "
  "fine surface; CCD = collision-free step size on the fine surface; line search = energy evaluations "
  "(elastic + barrier + friction).\n")
w("| fine mesh | method | " + " | ".join(PHASES + ["other"]) + " | total |")
w("|---|---|" + "---|" * (len(PHASES) + 2))
for m in MESHES:
    for e in ("emb35", "full"):
        r = runs.get((m, e))
        if not r:
            continue
        p = phases_ms(r)
        cells = " | ".join(f"{fmt(p[k])} ({100 * p[k] / sum(p.values()):.0f}%)" for k in PHASES + ["other"])
        w(f"| {m} | {'embedded' if e == 'emb35' else 'full'} | {cells} | {fmt(sum(p.values()))} |")

if common:
    steps50 = common
    w(f"\n## Like for like: the first {steps50} step(s) of every run (CPU s per step)\n")
    w("| fine mesh | embedded | full space | full / embedded |")
    w("|---|---|---|---|")
    for m in MESHES:
        vals = {}
        for e in ("emb35", "full"):
            r = runs.get((m, e))
            if r:
                vals[e] = sum(r["per_step"]["wall_seconds"][:steps50]) * cpu_share(r) / steps50
        if len(vals) == 2:
            w(f"| {m} | {fmt(vals['emb35'])} | {fmt(vals['full'])} | {vals['full'] / vals['emb35']:.0f}x |")
        elif "emb35" in vals and (m, "full") in stopped:
            cpu = stopped[(m, "full")]["cpu_seconds"]
            w(f"| {m} | {fmt(vals['emb35'])} | > {cpu:.0f} (step 1 unfinished) | > {cpu / vals['emb35']:.0f}x |")

# Growth factors from the smallest to the largest mesh (per step, CPU).
w("\n## Reading\n")
emb = [runs.get((m, "emb35")) for m in MESHES]
full = [runs.get((m, "full")) for m in MESHES]
if all(emb):
    surf = emb[-1]["size"]["surface_vertices"] / emb[0]["size"]["surface_vertices"]
    fine = emb[-1]["size"]["fine_vertices"] / emb[0]["size"]["fine_vertices"]
    p0, p2 = phases_ms(emb[0]), phases_ms(emb[-1])
    contact0 = p0["broad_phase"] + p0["ccd"] + p0["line_search"] + p0["assembly"]
    contact2 = p2["broad_phase"] + p2["ccd"] + p2["line_search"] + p2["assembly"]
    w(f"- From 0.4k to 50k fine vertices (x{fine:.0f}; surface x{surf:.0f}) the embedded step costs "
      f"x{per_step_cpu(emb[-1]) / per_step_cpu(emb[0]):.0f} more CPU "
      f"({fmt(per_step_cpu(emb[0]))} -> {fmt(per_step_cpu(emb[-1]))} s): it follows the size of the surface, "
      "not of the volume mesh. Its linear solve stays at the size of the "
      f"embedding ({emb[0]['size']['dofs']} DOFs: {fmt(p0['linear_solve'])} -> {fmt(p2['linear_solve'])} ms per step) "
      "and so does the elasticity: that is where cost stops following the fine mesh.")
    w(f"- What still follows the fine mesh in the embedded runs is everything that works on the fine collision "
      f"surface: broad phase {fmt(p0['broad_phase'])} -> {fmt(p2['broad_phase'])} ms, CCD {fmt(p0['ccd'])} -> "
      f"{fmt(p2['ccd'])} ms, barrier/friction assembly with J^T H J {fmt(p0['assembly'])} -> {fmt(p2['assembly'])} ms, "
      f"line search {fmt(p0['line_search'])} -> {fmt(p2['line_search'])} ms per step; together "
      f"{100 * contact2 / sum(p2.values()):.0f}% of the embedded 50k step (other: x = J q and the convergence "
      "check over all fine vertices, the two broad-phase calls outside Newton (friction set at the start of the "
      "step, contacts and forces at its end), which are not in the broad_phase column).")
if all(full[:2]) and all(emb[:2]):
    f0, f1 = phases_ms(full[0]), phases_ms(full[1])
    w(f"- Full space, 0.4k -> 5k: the step costs x{per_step_cpu(full[1]) / per_step_cpu(full[0]):.0f} more "
      f"(assembly {fmt(f0['assembly'])} -> {fmt(f1['assembly'])} ms, linear solve {fmt(f0['linear_solve'])} -> "
      f"{fmt(f1['linear_solve'])} ms, line search {fmt(f0['line_search'])} -> {fmt(f1['line_search'])} ms): "
      "elasticity and the sparse Cholesky grow with the fine volume mesh, on top of the same surface work as the "
      f"embedded run. The Cholesky is {100 * f1['linear_solve'] / sum(f1.values()):.0f}% of the full-space 5k step "
      "(CHOLMOD, on the BLAS named under Machine).")
if full[2] and emb[2]:
    w(f"- At 50k the full-space step takes {fmt(per_step_cpu(full[2]))} CPU s "
      f"(over {full[2]['summary']['steps']} step(s)) against {fmt(per_step_cpu(emb[2]))} s embedded.")
elif ("50k", "full") in stopped and emb[2]:
    w(f"- At 50k the full-space method did not complete one step in {stopped[('50k', 'full')]['cpu_seconds']:.0f} "
      f"CPU s; the embedded step takes {fmt(per_step_cpu(emb[2]))} CPU s.")
w("")
print("\n".join(out))
