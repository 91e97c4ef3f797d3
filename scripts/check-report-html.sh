#!/usr/bin/env bash
# Renders a report.html in headless Chromium and saves a full-page screenshot, to check by eye that the charts
# show and nothing executes. Not run in CI (needs Debian's chromium package).
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

# A script that ran would show up in the DOM dump as changed content; the CSP should block any.
dom=$("$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking \
  --disable-component-update --disable-sync --user-data-dir="$profile" --dump-dom "file://$html" 2>/dev/null || true)
images=$(grep -o '<img ' <<<"$dom" | wc -l)
scripts=$(grep -ci '<script' <<<"$dom" || true)
echo "screenshot: $out (${width}x${height})"
echo "images in the rendered page: $images; <script> elements: $scripts (expected 0)"
if [[ "$scripts" != "0" ]]; then
  echo "FAIL: the rendered page contains a <script> element" >&2
  exit 1
fi
