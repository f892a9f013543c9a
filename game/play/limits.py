"""The engine's command-line limits, as the app's options check them (re-exported so that the UI never
imports the engine package itself)."""

from ai.vocab.limits import MAX_BENCH_SECONDS, check_range

__all__ = ["MAX_BENCH_SECONDS", "check_range"]
