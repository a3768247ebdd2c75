"""Figure style for a paper column (3.4 in wide, 7-8 pt fonts) and reproducible files."""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

COLUMN_WIDTH = 3.4  # inches

RC = {
    "font.size": 8, "axes.labelsize": 8, "axes.titlesize": 8, "legend.fontsize": 7,
    "xtick.labelsize": 7, "ytick.labelsize": 7, "lines.linewidth": 1.0, "lines.markersize": 4,
    "axes.grid": True, "grid.linewidth": 0.4, "grid.alpha": 0.5, "legend.frameon": False,
    "savefig.dpi": 300, "svg.fonttype": "none",
    # Same data, same bytes: fixed SVG ids, no dates or software versions in the files.
    "svg.hashsalt": "eipc-report",
}

MARKERS = ["o", "s", "^", "D", "v", "P", "X"]
# Time series of several methods often coincide; dashes keep each one visible.
DASHES = ["-", "--", ":", "-."]


def apply():
    plt.rcParams.update(RC)


def method_style(index):
    """Colour and marker of the index-th method, the same in every plot."""
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    return {"color": colors[index % len(colors)], "marker": MARKERS[index % len(MARKERS)],
            "dash": DASHES[index % len(DASHES)]}


def series_style(method_style):
    """Line style of a method in the time-series plots (no markers)."""
    return {"color": method_style["color"], "linestyle": method_style["dash"]}


def log_axis(axis, values=None):
    """Readable log ticks: at the given values (the time steps), else at 1, 2, 5 per decade."""
    from matplotlib import ticker
    if values is not None:
        axis.set_major_locator(ticker.FixedLocator(sorted(set(values))))
    else:
        axis.set_major_locator(ticker.LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    axis.set_major_formatter(ticker.FuncFormatter(lambda v, _: f"{v:g}"))
    axis.set_minor_formatter(ticker.NullFormatter())


def figure(height, rows=1):
    fig, axes = plt.subplots(rows, 1, figsize=(COLUMN_WIDTH, height), sharex=rows > 1, squeeze=False)
    return fig, [ax for ax in axes[:, 0]]


def save(fig, out_dir, stem):
    """Writes stem.png and stem.svg; returns the two file names."""
    fig.tight_layout(pad=0.3)
    names = [f"{stem}.png", f"{stem}.svg"]
    fig.savefig(f"{out_dir}/{names[0]}", metadata={"Software": None})
    fig.savefig(f"{out_dir}/{names[1]}", metadata={"Date": None, "Creator": None})
    plt.close(fig)
    return names
