#!/usr/bin/env bash
# Prints the path of a Chromium for the replay page's browser test
# (cmd/attu, TestReplayPageInBrowser), installing Debian's chromium package
# first when none is on the PATH. Use it as
#   ATTU_CHROMIUM=$(scripts/chromium.sh) go test ./cmd/attu -run Browser
# Installing needs root (or sudo) and the Debian package archive.
set -euo pipefail
find_browser() {
  for name in chromium chromium-browser google-chrome-stable google-chrome; do
    if path=$(command -v "$name" 2>/dev/null); then
      echo "$path"
      return 0
    fi
  done
  return 1
}
if find_browser; then
  exit 0
fi
sudo=""
if [ "$(id -u)" != 0 ]; then
  sudo="sudo"
fi
echo "installing Debian's chromium package..." >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >&2
$sudo apt-get install -y -qq --no-install-recommends chromium >&2
find_browser || { echo "chromium was installed but is not on the PATH" >&2; exit 1; }
