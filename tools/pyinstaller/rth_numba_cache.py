"""PyInstaller runtime hook: make numba cache compiled code across launches of the frozen app.

Runs before main.py, only in the frozen app. It does not import numba (the window process never
does); numba reads the variables when the engine process imports it. See frozen_numba_cache.py.
The frozen app compiles for a portable CPU ("generic"), so the compiled code shipped in the bundle
is accepted on any machine of the same architecture (measured: no loss of search speed here).
"""

import os

os.environ.setdefault("NUMBA_CACHE_LOCATOR_CLASSES", "frozen_numba_cache.FrozenCacheLocator,UserWideCacheLocator")
os.environ.setdefault("NUMBA_CPU_NAME", "generic")
