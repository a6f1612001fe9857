#!/usr/bin/env bash
# Loads a page in headless Chromium (Debian package chromium) with #selftest and prints the
# result the page wrote into <pre id="selftest">, for the HTML self-tests of the report and diff
# pages. Usage: headless_dom.sh PAGE.html WORK_DIR
set -euo pipefail
page=$1
work=$2
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  echo "headless_dom: chromium is not installed (Debian package: chromium)" >&2
  exit 1
fi
dom=$(timeout 120 "$browser" --headless --no-sandbox --disable-gpu \
  --disable-background-networking --disable-component-update --no-first-run \
  --user-data-dir="$work/browser" --dump-dom "file://$page#selftest" \
  2>"$work/browser.log") || { cat "$work/browser.log" >&2; exit 1; }
# The DOM is serialised HTML: the text's <, > and & come back as entities.
result=$(grep -o '<pre id="selftest">[^<]*' <<<"$dom" |
  sed 's/^<pre id="selftest">//; s/&lt;/</g; s/&gt;/>/g; s/&amp;/\&/g' || true)
echo "${result:-selftest: no result in the DOM}"
