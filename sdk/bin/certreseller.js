#!/usr/bin/env node
// `certreseller`: the built command, dist/cmd/certreseller.js. This file is committed
// (dist is not) so that npm can link the bin when it installs the package,
// before the package is built.
"use strict";
const fs = require("node:fs");
const path = require("node:path");

const built = path.join(__dirname, "..", "dist", "cmd", "certreseller.js");
if (!fs.existsSync(built)) {
  process.stderr.write(`certreseller: ${path.relative(process.cwd(), built) || built} is missing: the SDK is not built; run \`npm run build\` first\n`);
  process.exit(1);
}
// Before the command loads anything: an older Node fails inside undici with a TypeError naming neither Node nor the fix.
try {
  require(path.join(__dirname, "..", "dist", "node-version.js"));
} catch (error) {
  process.stderr.write(`certreseller: ${error.message}\n`);
  process.exit(1);
}
require(built).runFromCommandLine();
