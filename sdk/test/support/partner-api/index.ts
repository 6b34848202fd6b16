/**
 * The scripted Partner API of the sdk tests, in one place: the HTTP server
 * (./scripted-server.ts), its answers (./answers.ts) and per-file clients
 * against it (./scripted-clients.ts). Tests that need the service's
 * behaviour use the sandbox (certreseller-sandbox) instead.
 */
export * from "./answers.js";
export * from "./scripted-clients.js";
export * from "./scripted-server.js";
