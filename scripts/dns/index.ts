// BIND 9 for tests: `ensureBind()` finds or installs `named` (the e2e global
// setup calls it, as it calls ensureEngine), `startBind()` runs one
// authoritative server with a TSIG key on a free loopback port.
export { ensureBind, findNamed, BindUnavailableError, BIND_INSTALL_INSTRUCTIONS, BIND_PACKAGES, type Bind, type BindSource, type EnsureBindOptions } from "./provision.js";
export { startBind, type RunningBind, type StartBindOptions, type BindKey, type BindZone } from "./bind.js";
