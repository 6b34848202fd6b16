"use strict";
// `pulumi-certreseller/provider`: the short, stable path the provider text in
// state requires (src/provider/provider-text.ts).
// STABLE ACROSS RELEASES: the export is `setup` of dist/provider/entry.js
// (the previous text calls `require("pulumi-certreseller/provider")(this, req)`),
// with `provider` of the same file as a property (the current text calls
// `require("pulumi-certreseller/provider").provider(name)`). Add, never remove.
const entry = require("./dist/provider/entry.js");
module.exports = Object.assign((self, req) => entry.setup(self, req), { provider: entry.provider });
