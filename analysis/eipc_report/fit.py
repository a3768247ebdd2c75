"""Convergence order: least-squares slope of log E against log h."""
import math


def fitted_order(steps, errors):
    """Slope of the least-squares line through (log h, log E).

    Points with a non-positive or non-finite E cannot be placed on a log axis and
    are left out; returns None when fewer than two distinct h remain.
    """
    points = [(math.log(h), math.log(e)) for h, e in zip(steps, errors)
              if h > 0 and e is not None and math.isfinite(e) and e > 0]
    if len({x for x, _ in points}) < 2:
        return None
    n = len(points)
    mean_x = sum(x for x, _ in points) / n
    mean_y = sum(y for _, y in points) / n
    sxy = sum((x - mean_x) * (y - mean_y) for x, y in points)
    sxx = sum((x - mean_x) ** 2 for x, _ in points)
    return sxy / sxx
