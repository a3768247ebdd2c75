"""The per-frame quantities the plots need from one trajectory file (docs/trajectory-format.md)."""
from dataclasses import dataclass

import h5py
import numpy as np

from .errors import InputError


@dataclass
class PairSeries:
    time: np.ndarray            # [F] s
    normal: np.ndarray          # [F, 3] N, on body A from body B
    friction: np.ndarray        # [F, 3] N, on body A from body B
    pair_count: np.ndarray      # [F] contact primitive pairs between A and B
    active_pairs: np.ndarray    # [F] contact primitive pairs of the whole scene
    status: str


def _dataset(f, path, name):
    if name not in f:
        raise InputError(f"{path}: dataset '/{name}' is missing")
    return f[name][()]


def _text(value):
    return value.decode() if isinstance(value, bytes) else str(value)


def _open(path):
    try:
        return h5py.File(path, "r")
    except OSError as e:
        raise InputError(f"{path}: cannot be read as HDF5 ({e})") from None


def most_touching_pair(path):
    """(A, B): the stored body pair with the most contact primitive pairs summed over
    the frames (the first on ties), or None when no bodies touch."""
    with _open(path) as f:
        names = [_text(n) for n in f.attrs.get("body_names", [])]
        pairs = np.asarray(_dataset(f, path, "contact/pairs"), dtype=int).reshape(-1, 2)
        if not len(pairs):
            return None
        counts = np.asarray(_dataset(f, path, "contact/pair_count"), dtype=float).reshape(-1, len(pairs))
        totals = counts.sum(axis=0)
        if not totals.any():
            return None
        p, q = pairs[int(np.argmax(totals))]
        return names[p], names[q]


def start_gap(path):
    """(closest distance at t = 0 [m], the run's dhat [m]): frame 0's min_distance (infinite
    when nothing is within dhat) and contact_json's dhat; None when either is not stored."""
    import json
    with _open(path) as f:
        if "frames/min_distance" not in f or "contact_json" not in f.attrs:
            return None
        gap = float(f["frames/min_distance"][0])
        dhat = json.loads(_text(f.attrs["contact_json"])).get("dhat")
    return None if dhat is None else (gap, float(dhat))


def read_pair_series(path, body_a, body_b):
    """Contact forces on body_a from body_b and contact counts over time."""
    with _open(path) as f:
        if _text(f.attrs.get("format", "")) != "eipc-trajectory":
            raise InputError(f"{path}: attribute 'format': not an eipc trajectory")
        if "status" not in f.attrs:
            raise InputError(f"{path}: attribute 'status' is missing (unfinished file)")
        names = [_text(n) for n in f.attrs.get("body_names", [])]
        for name in (body_a, body_b):
            if name not in names:
                raise InputError(f"{path}: attribute 'body_names': no body '{name}' (have {', '.join(names)})")
        a, b = names.index(body_a), names.index(body_b)
        time = np.asarray(_dataset(f, path, "frames/time"), dtype=float)
        frames = len(time)
        active = np.asarray(_dataset(f, path, "frames/active_pairs"), dtype=float)
        if active.shape != time.shape:
            raise InputError(f"{path}: dataset '/frames/active_pairs': {active.shape[0]} frames, "
                             f"/frames/time has {frames}")
        pairs = np.asarray(_dataset(f, path, "contact/pairs"), dtype=int).reshape(-1, 2)
        normal = np.zeros((frames, 3))
        friction = np.zeros((frames, 3))
        count = np.zeros(frames)
        if len(pairs):
            fn = np.asarray(_dataset(f, path, "contact/normal_force"), dtype=float)
            ft = np.asarray(_dataset(f, path, "contact/friction_force"), dtype=float)
            pc = np.asarray(_dataset(f, path, "contact/pair_count"), dtype=float)
            for name, data, shape in (("normal_force", fn, (frames, len(pairs), 3)),
                                      ("friction_force", ft, (frames, len(pairs), 3)),
                                      ("pair_count", pc, (frames, len(pairs)))):
                if data.shape != shape:
                    raise InputError(f"{path}: dataset '/contact/{name}': shape {data.shape}, expected {shape}")
            for column, (p, q) in enumerate(pairs):
                # Stored forces act on the pair's first body; the other body feels the opposite.
                sign = 1.0 if (p, q) == (a, b) else -1.0 if (p, q) == (b, a) else 0.0
                if sign != 0.0:
                    normal += sign * fn[:, column, :]
                    friction += sign * ft[:, column, :]
                    count += pc[:, column]
        return PairSeries(time, normal, friction, count, active, _text(f.attrs["status"]))
