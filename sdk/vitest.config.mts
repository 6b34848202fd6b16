import { defineConfig } from "vitest/config";
import { TEST_WORKERS } from "../vitest.workers.mts";

export default defineConfig({
  test: {
    name: "sdk",
    maxWorkers: TEST_WORKERS,
    include: ["test/**/*.test.ts"],
    // The journal store tests' bucket servers, built once and cached (scripts/journal-stores/).
    globalSetup: ["./test/journal/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
