#!/usr/bin/env bash
# Runs staticcheck at the version pinned here, installing it into .ci/bin
# (ignored by git) the first time or when the pin changes, so that every
# machine checks the code with the same analyses. Arguments go to
# staticcheck: .ci/staticcheck.sh ./...
set -euo pipefail
cd "$(dirname "$0")/.."
version=v0.8.2 # staticcheck 2026.2.2; supports Go 1.26
bin="$PWD/.ci/bin"
case "$("$bin/staticcheck" -version 2>/dev/null || true)" in
*"(${version#v})") ;;
*)
  echo "installing staticcheck $version into .ci/bin"
  GOBIN="$bin" go install "honnef.co/go/tools/cmd/staticcheck@$version"
  ;;
esac
exec "$bin/staticcheck" "$@"
