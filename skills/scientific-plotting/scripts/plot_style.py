#!/usr/bin/env python3
"""Publication style for matplotlib, and an example multi-panel figure.

Use as a module:

    from plot_style import apply_style, figure_size, label_panels, save_figure
    apply_style()
    fig, ax = plt.subplots(figsize=figure_size("nature", "single", aspect=0.75))

or run it to draw the example figure:

    python plot_style.py --out figures --journal nature

Needs matplotlib 3.5 or later and numpy; nothing else.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Callable, Iterable, Sequence

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np

# Okabe and Ito (2008): distinguishable with the common colour-vision deficiencies.
OKABE_ITO = {
    "orange": "#E69F00",
    "sky_blue": "#56B4E9",
    "bluish_green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "reddish_purple": "#CC79A7",
    "black": "#000000",
}
# Yellow is dropped from the default cycle: it vanishes on white.
CYCLE = [OKABE_ITO[k] for k in ("blue", "vermillion", "bluish_green", "orange", "reddish_purple", "sky_blue", "black")]

# Typical column widths in millimetres; check the journal's current guide.
JOURNAL_WIDTHS_MM = {
    "nature": {"single": 89, "double": 183},
    "science": {"single": 57, "double": 121, "full": 184},
    "cell": {"single": 85, "onehalf": 114, "double": 174},
    "pnas": {"single": 87, "onehalf": 114, "double": 178},
    "elsevier": {"single": 90, "onehalf": 140, "double": 190},
    "ieee": {"single": 88.9, "double": 181.9},
    "springer": {"single": 84, "double": 174},
}

MM_PER_INCH = 25.4


def figure_size(journal: str = "nature", width: str = "single", aspect: float = 0.75) -> tuple[float, float]:
    """(width, height) in inches for a journal column; height = width * aspect."""
    try:
        width_mm = JOURNAL_WIDTHS_MM[journal][width]
    except KeyError as error:
        known = ", ".join(f"{j}: {sorted(w)}" for j, w in JOURNAL_WIDTHS_MM.items())
        raise SystemExit(f"unknown journal/width {journal}/{width}; known: {known}") from error
    width_in = width_mm / MM_PER_INCH
    return width_in, width_in * aspect


def apply_style(font_pt: float = 7.0) -> None:
    """Set rcParams for print: small sans-serif text, thin lines, embeddable fonts."""
    mpl.rcParams.update(
        {
            "font.family": "sans-serif",
            "font.sans-serif": ["Arial", "Helvetica", "Liberation Sans", "DejaVu Sans"],
            "font.size": font_pt,
            "axes.titlesize": font_pt,
            "axes.labelsize": font_pt,
            "xtick.labelsize": font_pt - 1,
            "ytick.labelsize": font_pt - 1,
            "legend.fontsize": font_pt - 1,
            "legend.frameon": False,
            "axes.linewidth": 0.6,
            "axes.spines.top": False,
            "axes.spines.right": False,
            "axes.prop_cycle": mpl.cycler(color=CYCLE),
            "xtick.major.width": 0.6,
            "ytick.major.width": 0.6,
            "xtick.major.size": 2.5,
            "ytick.major.size": 2.5,
            "lines.linewidth": 1.0,
            "lines.markersize": 3.0,
            "errorbar.capsize": 2.0,
            "image.cmap": "viridis",
            "figure.dpi": 150,
            "figure.constrained_layout.use": True,
            "savefig.dpi": 600,
            # TrueType (42) keeps text editable in Illustrator/Inkscape; Type 3 is rejected by some journals.
            "pdf.fonttype": 42,
            "ps.fonttype": 42,
            "svg.fonttype": "none",
            # A fixed salt makes SVG element ids, and so the file, identical across runs.
            "svg.hashsalt": "skillgarden",
        }
    )


def bootstrap_ci(
    values: Sequence[float],
    statistic: Callable[[np.ndarray], float] = np.mean,
    level: float = 95.0,
    n_boot: int = 10_000,
    seed: int = 0,
) -> tuple[float, float]:
    """Percentile bootstrap confidence interval; seeded, so the figure is reproducible."""
    data = np.asarray(values, dtype=float)
    rng = np.random.default_rng(seed)
    samples = rng.choice(data, size=(n_boot, data.size), replace=True)
    stats = np.apply_along_axis(statistic, 1, samples)
    tail = (100.0 - level) / 2.0
    low, high = np.percentile(stats, [tail, 100.0 - tail])
    return float(low), float(high)


def label_panels(axes: Iterable[plt.Axes], labels: str = "abcdefghij") -> None:
    """Bold lowercase panel letters just outside the top-left corner of each axes."""
    for ax, letter in zip(axes, labels):
        # Offset in inches, so the letter keeps its distance whatever the panel size.
        offset = mpl.transforms.ScaledTranslation(-0.12, 0.04, ax.figure.dpi_scale_trans)
        trans = ax.transAxes + offset
        ax.text(0.0, 1.0, letter, transform=trans, fontweight="bold", va="bottom", ha="right",
                fontsize=mpl.rcParams["font.size"] + 1)


def freeze_layout(fig: plt.Figure, digits: int = 6) -> None:
    """Run the layout once, round every axes position, and switch the layout engine off.

    The constrained-layout solver can differ in the last bit between runs, which changes
    the clip-path ids in SVG output; rounded positions keep the files byte-identical.
    """
    fig.canvas.draw()
    for ax in fig.axes:
        ax.set_position([round(v, digits) for v in ax.get_position().bounds])
    if hasattr(fig, "set_layout_engine"):
        fig.set_layout_engine("none")
    else:  # matplotlib 3.5
        fig.set_constrained_layout(False)


def save_figure(fig: plt.Figure, stem: Path, formats: Sequence[str] = ("pdf", "svg", "png")) -> list[Path]:
    """Write the figure once per format at its exact size, without timestamps in the files."""
    stem.parent.mkdir(parents=True, exist_ok=True)
    freeze_layout(fig)
    metadata = {"pdf": {"CreationDate": None}, "svg": {"Date": None}, "png": {"Software": None}}
    written = []
    for fmt in formats:
        path = stem.with_suffix(f".{fmt}")
        fig.savefig(path, format=fmt, metadata=metadata.get(fmt, {}))
        written.append(path)
    return written


def example_figure(journal: str = "nature", seed: int = 1) -> plt.Figure:
    """Three panels: a line with a CI band, points with mean and CI, a heatmap with a colour bar."""
    rng = np.random.default_rng(seed)
    fig, axes = plt.subplot_mosaic([["a", "b", "c"]], figsize=figure_size(journal, "double", aspect=0.32),
                                   gridspec_kw={"width_ratios": [1.2, 1.0, 1.0]})

    dose = np.linspace(0, 10, 11)
    for i, (name, marker) in enumerate([("control", "o"), ("drug A", "s"), ("drug B", "^")]):
        reps = 0.3 * (i + 1) * dose[None, :] + rng.normal(0, 0.6, size=(8, dose.size))
        mean = reps.mean(axis=0)
        # 95% CI of the mean from the normal approximation; fine for n = 8 in an example.
        half = 1.96 * reps.std(axis=0, ddof=1) / np.sqrt(reps.shape[0])
        axes["a"].plot(dose, mean, marker=marker, label=name)
        axes["a"].fill_between(dose, mean - half, mean + half, alpha=0.2, linewidth=0)
    axes["a"].set(xlabel="Dose (mg kg$^{-1}$)", ylabel="Response (a.u.)")
    axes["a"].legend(loc="upper left")

    groups = {"WT": rng.normal(1.0, 0.3, 12), "KO": rng.normal(1.6, 0.4, 12), "KO + R": rng.normal(1.1, 0.35, 12)}
    for x, (name, values) in enumerate(groups.items()):
        jitter = rng.uniform(-0.12, 0.12, values.size)
        axes["b"].scatter(np.full(values.size, x) + jitter, values, s=6, color="0.6", linewidths=0, zorder=1)
        low, high = bootstrap_ci(values, seed=seed + x)
        mean = values.mean()
        axes["b"].errorbar(x + 0.28, mean, yerr=[[mean - low], [high - mean]], fmt="o", color=CYCLE[x], zorder=2)
    axes["b"].set_xticks(range(len(groups)), list(groups))
    axes["b"].set(ylabel="Expression (fold change)", xlim=(-0.5, len(groups) - 0.3))

    field = np.add.outer(np.sin(np.linspace(0, 3, 20)), np.cos(np.linspace(0, 3, 30)))
    image = axes["c"].imshow(field, cmap="viridis", aspect="auto", origin="lower")
    axes["c"].set(xlabel="Position x", ylabel="Position y")
    fig.colorbar(image, ax=axes["c"], label="Signal (a.u.)", shrink=0.9)

    label_panels([axes["a"], axes["b"], axes["c"]])
    return fig


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("figures"), help="output folder (default: figures)")
    parser.add_argument("--journal", default="nature", choices=sorted(JOURNAL_WIDTHS_MM))
    parser.add_argument("--formats", default="pdf,svg,png", help="comma-separated (default: pdf,svg,png)")
    args = parser.parse_args()

    apply_style()
    fig = example_figure(args.journal)
    for path in save_figure(fig, args.out / "example_figure", args.formats.split(",")):
        print(path)


if __name__ == "__main__":
    main()
