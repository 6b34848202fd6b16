// Preloaded (NODE_OPTIONS=--require) into the Node processes the engine
// starts when BENCH_PROFILE_PROCESSES is set, next to `--cpu-prof`. The
// engine stops a plugin with a signal, and a Node process killed by a signal
// writes no profile: here a signal exits normally, so `--cpu-prof` writes
// it. Each process also notes which process it was, so the profiles
// (CPU.<date>.<pid>...) can be told apart.
"use strict";
const fs = require("node:fs");
const path = require("node:path");

const dir = process.env.BENCH_PROFILE_PROCESSES;
if (dir) {
  fs.mkdirSync(dir, { recursive: true });
  fs.appendFileSync(path.join(dir, "processes.txt"), `${process.pid} ${path.basename(process.cwd())} ${process.argv.slice(1).join(" ")}\n`);
  for (const signal of ["SIGINT", "SIGTERM"]) process.once(signal, () => process.exit(0));
}
