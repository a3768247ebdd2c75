"""Reading and checking DIR/runs.csv as written by `eipc sweep`."""
import csv
import math
import os
from dataclasses import dataclass
from typing import Optional

from .errors import InputError

COLUMNS = ["scenario", "embedding", "dt", "steps", "wall_seconds", "real_time_factor",
           "newton_mean", "newton_max", "line_search_steps", "min_distance", "certified",
           "status", "exit_code", "trajectory", "error"]


@dataclass
class Run:
    line: int                 # line in runs.csv (header is line 1), for messages
    scenario: str
    embedding: str
    dt: float
    steps: Optional[int]
    wall_seconds: Optional[float]
    real_time_factor: Optional[float]
    newton_mean: Optional[float]
    newton_max: Optional[float]
    line_search_steps: Optional[int]
    min_distance: Optional[float]
    certified: str
    status: str
    exit_code: int
    trajectory: str           # path relative to DIR ("" if none)
    error: Optional[float]    # E(h) against the reference; None if no reference
    # The frame with the largest error and its share of E(h)^2 (optional columns, docs/sweep.md)
    worst_frame_time: Optional[float] = None
    worst_frame_share: Optional[float] = None

    @property
    def ok(self):
        """The run finished (exit code 0): its numbers enter the tables."""
        return self.exit_code == 0


def _number(text, where, field, kind=float, required=False):
    text = text.strip()
    if text == "":
        if required:
            raise InputError(f"{where}: field '{field}': empty")
        return None
    try:
        value = kind(text) if kind is float else int(float(text))
    except ValueError:
        raise InputError(f"{where}: field '{field}': '{text}' is not a number") from None
    if kind is int and float(text) != value:
        raise InputError(f"{where}: field '{field}': '{text}' is not an integer")
    return value


def _parse_row(row, where):
    exit_code = _number(row["exit_code"], where, "exit_code", int, required=True)
    finished = exit_code == 0
    dt = _number(row["dt"], where, "dt", required=True)
    if not (math.isfinite(dt) and dt > 0):
        raise InputError(f"{where}: field 'dt': {row['dt']} is not a positive time step")
    for field in ("scenario", "embedding"):
        if row[field].strip() == "":
            raise InputError(f"{where}: field '{field}': empty")
    # A finished run must have its timing; a failed one may have blanks.
    return Run(line=0, scenario=row["scenario"].strip(), embedding=row["embedding"].strip(), dt=dt,
               steps=_number(row["steps"], where, "steps", int, finished),
               wall_seconds=_number(row["wall_seconds"], where, "wall_seconds", float, finished),
               real_time_factor=_number(row["real_time_factor"], where, "real_time_factor"),
               newton_mean=_number(row["newton_mean"], where, "newton_mean"),
               newton_max=_number(row["newton_max"], where, "newton_max"),
               line_search_steps=_number(row["line_search_steps"], where, "line_search_steps", int),
               min_distance=_number(row["min_distance"], where, "min_distance"),
               certified=row["certified"].strip(), status=row["status"].strip(), exit_code=exit_code,
               trajectory=row["trajectory"].strip(),
               error=_number(row["error"], where, "error"),
               worst_frame_time=_number(row.get("worst_frame_time") or "", where, "worst_frame_time"),
               worst_frame_share=_number(row.get("worst_frame_share") or "", where, "worst_frame_share"))


def read_runs(directory):
    """All runs of DIR/runs.csv in file order; a later row for the same
    (scenario, embedding, dt) replaces an earlier one (a re-run). Runs of a peer engine
    (column `engine`, docs/peers.md) get the embedding label "<engine>:<embedding>"."""
    path = os.path.join(directory, "runs.csv")
    if not os.path.isfile(path):
        raise InputError(f"{path}: file not found (make it with `eipc sweep SCENE ... --out {directory}`)")
    with open(path, newline="", encoding="utf-8-sig") as f:  # -sig: tolerate a byte-order mark
        reader = csv.DictReader(f)
        header = [c.strip() for c in (reader.fieldnames or [])]
        missing = [c for c in COLUMNS if c not in header]
        if missing:
            raise InputError(f"{path}: header: missing column(s) {', '.join(missing)}")
        reader.fieldnames = header
        runs = {}
        for row in reader:
            where = f"{path} line {reader.line_num}"
            if None in row or any(row[c] is None for c in COLUMNS):
                raise InputError(f"{where}: expected {len(header)} fields")
            run = _parse_row(row, where)
            run.line = reader.line_num
            engine = (row.get("engine") or "eipc").strip()
            if engine != "eipc":  # a peer engine's runs (docs/peers.md) form their own series
                run.embedding = f"{engine}:{run.embedding}"
            runs[(run.scenario, run.embedding, run.dt)] = run
    if not runs:
        raise InputError(f"{path}: no runs listed")
    return list(runs.values())


def trajectory_path(directory, run):
    """Absolute path of a run's trajectory; InputError if it is not there."""
    where = f"{os.path.join(directory, 'runs.csv')} line {run.line}"
    if run.trajectory == "":
        raise InputError(f"{where}: field 'trajectory': empty")
    path = os.path.join(directory, run.trajectory)
    if not os.path.isfile(path):
        raise InputError(f"{where}: field 'trajectory': {path} does not exist")
    return path
