#!/usr/bin/env node
"use strict";
require("../dist/cli.js").main().catch((err) => {
  process.stderr.write(`certreseller-sandbox: ${(err && err.stack) || String(err)}\n`);
  process.exit(1);
});
