#!/usr/bin/env node
// `certreseller-preview-money`: the built command, dist/cmd/certreseller-preview-money.js. This
// file is committed (dist is not) so that npm can link the bin when it
// installs the package, before the package is built.
"use strict";
const fs = require("node:fs");
const path = require("node:path");

const built = path.join(__dirname, "..", "dist", "cmd", "certreseller-preview-money.js");
if (!fs.existsSync(built)) {
  process.stderr.write(`certreseller-preview-money: ${path.relative(process.cwd(), built) || built} is missing: the SDK is not built; run \`npm run build\` first\n`);
  process.exit(2); // its exit codes: 1 is "above the spend cap", 2 "could not run"
}
// Before the command loads anything: an older Node fails inside undici with a TypeError naming neither Node nor the fix.
try {
  require(path.join(__dirname, "..", "dist", "node-version.js"));
} catch (error) {
  process.stderr.write(`certreseller-preview-money: ${error.message}\n`);
  process.exit(2);
}
require(built).runFromCommandLine();
