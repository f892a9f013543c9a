"""Benchmark commands (``python -m ai.benchmarks.<name>``); they print figures, they assert nothing."""
