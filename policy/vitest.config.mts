import { defineConfig } from "vitest/config";
import { TEST_WORKERS } from "../vitest.workers.mts";

export default defineConfig({
  test: {
    name: "policy",
    maxWorkers: TEST_WORKERS,
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
