"""`rankflavor.plots`: the public name of the figures (rankflavor.display.figures; the `rankflavor[report]` extra)."""

from rankflavor.display.figures import differences, distribution, flavor_heatmap, scatter

__all__ = ["differences", "distribution", "flavor_heatmap", "scatter"]
