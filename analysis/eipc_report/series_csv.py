"""The plotted force and contact-count time series as CSV (the numbers behind the figures)."""
import csv


def write_pair_series_csv(path, series, pair):
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["embedding", "time", "normal_x", "normal_y", "normal_z",
                    "friction_x", "friction_y", "friction_z", f"pairs_{pair[0]}_{pair[1]}", "active_pairs"])
        for method, s in series.items():
            for i, t in enumerate(s.time):
                w.writerow([method, repr(float(t))] + [repr(float(v)) for v in s.normal[i]] +
                           [repr(float(v)) for v in s.friction[i]] +
                           [int(s.pair_count[i]), int(s.active_pairs[i])])
