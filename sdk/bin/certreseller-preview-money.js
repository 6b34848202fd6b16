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
require(built).runFromCommandLine();
