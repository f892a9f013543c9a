#!/usr/bin/env bash
# Build the release and record the measuring tools' output in docs/release-figures.txt (the README quotes it;
# tests/test_release_figures.py checks that). Run on an idle machine: .venv/bin/python must exist. The .deb is
# measured installed when this runs as root with dpkg (it is removed again).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
py=${PYTHON:-$root/.venv/bin/python}
out=docs/release-figures.txt
{
  echo "# recorded $(date -u +%Y-%m-%d) on $(nproc) cores; load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "## $py tools/release.py"
  $py tools/release.py | grep -E '^(release|artefact):'
  echo "## $py tools/measure_bundle.py dist/connect4/connect4"
  $py tools/measure_bundle.py dist/connect4/connect4
  onefile=$(ls dist/release/connect4-*-linux-* | grep -v '\.tar\.gz$' | head -1)
  echo "## $py tools/measure_bundle.py $onefile"
  $py tools/measure_bundle.py "$onefile"
  deb=$(ls dist/release/*.deb 2>/dev/null | head -1 || true)
  if [ -n "$deb" ] && [ "$(id -u)" = 0 ] && command -v dpkg >/dev/null; then
    dpkg -i "$deb" >/dev/null
    echo "## dpkg -i $deb; $py tools/measure_bundle.py /usr/bin/connect4"
    (cd /tmp && "$py" "$root/tools/measure_bundle.py" /usr/bin/connect4) || true
    dpkg -r connect4 >/dev/null
  fi
  echo "## main.py bench --threads 1 through numba's JIT, then through the bundle's compiled module (build/kernels)"
  CONNECT4_KERNELS=jit $py main.py bench --threads 1 | grep -E 'threads 1|kernels:'
  CONNECT4_KERNELS=compiled CONNECT4_KERNELS_DIR=build/kernels $py main.py bench --threads 1 | grep -E 'threads 1|kernels:'
  echo "## pip wheel . (the kernels compiled into it), pip install into a fresh venv, tools/measure_first_moves.py"
  wheel_tmp=$(mktemp -d)
  $py -m pip wheel -q --no-deps -w "$wheel_tmp/wheel" . >/dev/null
  python3 -m venv "$wheel_tmp/venv" && "$wheel_tmp/venv/bin/pip" install -q "$wheel_tmp"/wheel/*.whl >/dev/null
  $py tools/measure_first_moves.py "$wheel_tmp/venv/bin/connect4"
  rm -rf "$wheel_tmp"
  echo "## $py tools/measure_source_launch.py"
  $py tools/measure_source_launch.py
  echo "## load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$out.part"
mv "$out.part" "$out"  # written at the end: the build it measures was made from a clean tree
