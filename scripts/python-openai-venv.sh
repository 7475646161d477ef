#!/usr/bin/env bash
# Makes test-artifacts/python-openai: a venv of the system Python with the official `openai` Python
# client, for the contract test of fixtures/pipelines/frameworks/openai_python.py. PyPI itself is not
# reachable from CI, so the wheel comes from a local wheel store (WHEELS, default /opt/pypi/files);
# without one the venv is not made and the test says it skipped the Python client.
set -euo pipefail
cd "$(dirname "$0")/.."
VERSION=3.22.1
WHEELS="${WHEELS:-/opt/pypi/files}"
VENV=test-artifacts/python-openai
if [ -x "$VENV/bin/python" ] && "$VENV/bin/python" -c "import openai, sys; sys.exit(openai.__version__ != '$VERSION')" 2>/dev/null; then
  echo "python openai $VERSION: $VENV (already there)"; exit 0
fi
if ! ls "$WHEELS"/openai-"$VERSION"-*.whl >/dev/null 2>&1; then
  echo "python openai: no openai-$VERSION wheel in $WHEELS (PyPI is not reachable here): the Python client's contract test will be skipped"; exit 0
fi
rm -rf "$VENV"
/usr/bin/python3 -m venv "$VENV"
"$VENV/bin/pip" install --quiet --no-index --find-links "$WHEELS" "openai==$VERSION"
echo "python openai $("$VENV/bin/python" -c 'import openai; print(openai.__version__)'): $VENV"
