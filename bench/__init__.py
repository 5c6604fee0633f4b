"""Benchmarks of the toolkit, each measured side by side with a baseline in the same run.

``python -m bench`` (or ``python bench/run.py``) runs them all and prints one table; each module
also runs alone, e.g. ``python bench/cold_start.py``. See :mod:`bench.run` for the list and the
options. Nothing is imported here, so that running one benchmark loads only what it needs.
"""

__all__: list[str] = []
