"""PyInstaller runtime hook: make numba cache compiled code across launches of the frozen app.

Runs before main.py, only in the frozen app. It does not import numba (the window process never
does); numba reads the variable when the engine process imports it. See frozen_numba_cache.py.
"""

import os

os.environ.setdefault("NUMBA_CACHE_LOCATOR_CLASSES", "frozen_numba_cache.FrozenCacheLocator,UserWideCacheLocator")
