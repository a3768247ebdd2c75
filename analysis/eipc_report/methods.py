"""Which methods (embeddings) and time steps a set of runs holds, in display order."""

# Full space first, then embeddings from fine to coarse; unknown names follow alphabetically.
KNOWN_ORDER = ["full", "high", "medium", "low", "affine"]


def method_order(runs):
    names = {r.embedding for r in runs}
    known = [m for m in KNOWN_ORDER if m in names]
    return known + sorted(names - set(known))


def time_steps(runs):
    return sorted({r.dt for r in runs})


def by_method_and_step(runs):
    """{(embedding, dt): run} of the finished runs."""
    return {(r.embedding, r.dt): r for r in runs if r.ok}


def format_step(dt):
    return f"{dt:g}"
