# Sourced by ./play and ./run-tests: make .venv (once, or when pyproject.toml changes).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"

ensure_venv() {  # ensure_venv EXTRAS  (e.g. "" or "dev")
  local extras="$1" stamp="$VENV/.installed${1:+-$1}"
  local python="${PYTHON:-python3}"
  if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "Parlour needs Python 3.11 or newer (set PYTHON=/path/to/python3.11)" >&2
    exit 1
  fi
  if [ ! -x "$VENV/bin/python" ]; then
    echo "Creating the Python environment in .venv …" >&2
    "$python" -m venv "$VENV"
  fi
  if [ ! -f "$stamp" ] || [ "$ROOT/pyproject.toml" -nt "$stamp" ]; then
    echo "Installing Parlour${extras:+ with its $extras tools} …" >&2
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
      --config-settings editable_mode=compat -e "$ROOT${extras:+[$extras]}" >&2
    touch "$stamp"
  fi
}
