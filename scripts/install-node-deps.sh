#!/usr/bin/env bash
# Installs the browser test's npm dependency (playwright-core, pinned in tests/view/package.json and
# package-lock.json) into tests/view/node_modules. The browser itself is Debian's chromium
# (scripts/packages.txt): playwright-core downloads nothing. Does nothing, and needs no network, when
# the locked version is already there. Skips quietly without npm (the test is then not registered).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
dir="$here/../tests/view"
if ! command -v npm >/dev/null; then
  echo "install-node-deps: npm not found; the browser test will be skipped"
  exit 0
fi
want="$(node -e 'console.log(require(process.argv[1]).packages["node_modules/playwright-core"].version)' "$dir/package-lock.json")"
have="$(node -e 'try { console.log(require(process.argv[1]).version) } catch { console.log("") }' \
          "$dir/node_modules/playwright-core/package.json")"
if [ "$want" = "$have" ]; then
  echo "install-node-deps: playwright-core $have present"
  exit 0
fi
echo "install-node-deps: npm ci in tests/view (playwright-core $want)"
# No browser download: the test drives /usr/bin/chromium.
(cd "$dir" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund)
