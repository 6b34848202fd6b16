import { defineConfig } from "vitest/config";

// The real engine: each test drives `pulumi` through the Automation API.
// Runs one file at a time — the machine has two cores and the engine is heavy.
export default defineConfig({
  test: {
    name: "e2e",
    include: ["**/*.test.ts"],
    testTimeout: 600_000,
    hookTimeout: 900_000,
    fileParallelism: false,
  },
});
