export * from "./client/index.js";
