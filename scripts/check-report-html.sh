#!/usr/bin/env bash
# Renders a report.html in headless Chromium and saves a full-page screenshot, to check by eye that the charts
# show and that only the report's own script runs (the one its CSP allows by hash). Not run in CI (needs Debian's
# chromium package; tests/reports/html-browser.test.ts drives the filters and pages when it is installed).
#
#   scripts/check-report-html.sh RUN_DIR/report.html [OUT.png] [WIDTH] [HEIGHT]
#
# Then open OUT.png (default: next to the report, report-screenshot.png).
set -euo pipefail

if [[ $# -lt 1 ]]; then
  echo "usage: bash scripts/check-report-html.sh RUN_DIR/report.html [OUT.png] [WIDTH] [HEIGHT] (a report.html written by bench report)" >&2
  exit 2
fi
if [[ ! -f "$1" ]]; then
  echo "check-report-html.sh: no file $1: pass a report.html written by bench report, e.g. runs/<dir>/report.html" >&2
  exit 2
fi
html=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
out=${2:-$(dirname "$html")/report-screenshot.png}
width=${3:-1280}
height=${4:-4000}

browser=""
for candidate in chromium chromium-browser google-chrome; do
  if command -v "$candidate" >/dev/null 2>&1; then browser=$candidate; break; fi
done
if [[ -z "$browser" ]]; then
  echo "chromium is not installed. On Debian/Ubuntu: sudo apt-get update && sudo apt-get install -y chromium" >&2
  exit 3
fi

profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
# Headless screenshot; the network-related flags keep Chromium from phoning home.
"$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking \
  --disable-component-update --disable-sync --hide-scrollbars --user-data-dir="$profile" \
  --window-size="${width},${height}" --screenshot="$out" "file://$html" >/dev/null 2>"$profile/stderr.log" || {
  echo "chromium failed; its log:" >&2
  cat "$profile/stderr.log" >&2
  exit 1
}

# The DOM after scripts ran: one <script> element (the report's own), and the CSP refused nothing (a refusal means
# an injected script or a report whose script no longer matches its hash).
dom=$("$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking \
  --disable-component-update --disable-sync --user-data-dir="$profile" --enable-logging=stderr --v=0 \
  --dump-dom "file://$html" 2>"$profile/dom.log" || true)
images=$(grep -o '<img ' <<<"$dom" | wc -l)
scripts=$(grep -ci '<script' <<<"$dom" || true)
refused=$(grep -c 'Content Security Policy' "$profile/dom.log" || true)
echo "screenshot: $out (${width}x${height})"
echo "images in the rendered page: $images; <script> elements: $scripts (expected 1); CSP refusals: $refused (expected 0)"
if [[ "$scripts" != "1" || "$refused" != "0" ]]; then
  grep 'Content Security Policy' "$profile/dom.log" >&2 || true
  echo "FAIL: the page holds a script other than its own, or the CSP refused one" >&2
  exit 1
fi
