#!/usr/bin/env bash
# `npm run demo` on a fresh clone: npm itself needs nothing installed to start
# this script, so it installs, builds and provisions the engine before the demo
# (scripts/demo/main.ts) runs under the workspace's Node 24.
set -euo pipefail
cd "$(dirname "$0")/../.."
started=$SECONDS
say() { printf '\n== %s  (%d s)\n' "$1" "$((SECONDS - started))"; }

if [ ! -x node_modules/.bin/tsx ] || [ ! -x node_modules/.bin/tsc ]; then
  say "installing dependencies (npm ci; first run only)"
  bash scripts/demo/install.sh
fi
# The workspace's Node 24 (node_modules/.bin/node) first, also when this
# script is run without npm.
export PATH="$PWD/node_modules/.bin:$PATH"
say "building the packages (npm run build)"
npm run --silent build
exec node_modules/.bin/tsx scripts/demo/main.ts
