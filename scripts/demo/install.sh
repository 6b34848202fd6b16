#!/usr/bin/env bash
# `npm ci` for `npm run demo` on a fresh clone (extra arguments go to npm ci).
# npm may run here under an older system Node than the workspace's `engines`
# asks for; the install itself brings Node 24 (the `node` dev dependency),
# which runs everything after it. npm would print an EBADENGINE block per
# package for that: say once why it is harmless and keep only errors.
set -euo pipefail
required=$(node -p 'require("./package.json").engines.node')
if node -e '
  const m = /^>=\s*(\d+)(?:\.(\d+))?/.exec(process.argv[1]);
  const [major, minor] = process.versions.node.split(".").map(Number);
  const need = m ? [Number(m[1]), Number(m[2] ?? 0)] : [0, 0];
  process.exit(major > need[0] || (major === need[0] && minor >= need[1]) ? 0 : 1);
' "$required"; then
  exec npm ci --no-audit --no-fund "$@"
fi
echo "   npm runs under Node $(node -v) here, the workspace needs Node $required: this install brings Node 24 for every later step, so npm's EBADENGINE warnings are harmless and not shown (errors are)."
exec npm ci --no-audit --no-fund --loglevel=error "$@"
