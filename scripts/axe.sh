# Sourced by ./run-tests: install axe-core, the accessibility audit's engine, from npm
# into tests/browser/axe/node_modules (once, or when its package-lock.json changes), at
# the version the lock pins. Without npm the audit fails and says why: it never skips.
ensure_axe() {
  local folder="$ROOT/tests/browser/axe"
  local stamp="$folder/node_modules/.installed"
  if [ -f "$stamp" ] && [ ! "$folder/package-lock.json" -nt "$stamp" ]; then
    return
  fi
  if ! command -v npm >/dev/null; then
    echo "npm is missing (apt-get install npm): the accessibility audit will fail" >&2
    return
  fi
  echo "Installing axe-core for the accessibility audit …" >&2
  npm ci --prefix "$folder" --no-audit --no-fund --silent >&2
  touch "$stamp"
}
