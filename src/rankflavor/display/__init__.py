"""What a person sees: the `rankflavor report` page (page.py, sections.py, model.py, picks.py, assets/), the
figures (figures.py, public as `rankflavor.plots`) and the compact notebook HTML (notebook.py). It sits above
report/ and compare/; they reach notebook.py only from `_repr_html_`, lazily (ARCHITECTURE.md)."""
