"use strict";
// `require("pulumi-certreseller/provider")(this, req)` is what the provider
// text in state runs (src/provider/lazy-provider.ts): a short, stable path.
// STABLE ACROSS RELEASES: this file, and its export being `setup` of
// dist/provider/entry.js, stay as they are in every later release.
module.exports = require("./dist/provider/entry.js").setup;
