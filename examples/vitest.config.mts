import { defineConfig } from "vitest/config";
import { TEST_WORKERS } from "../vitest.workers.mts";

export default defineConfig({
  test: {
    name: "examples",
    maxWorkers: TEST_WORKERS,
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    server: {
      deps: {
        // pulumi-certreseller resolves through a workspace symlink to sdk/dist,
        // outside node_modules: load it natively (as a user's program does) so
        // it shares the one native @pulumi/pulumi whose mocks the tests install.
        external: [/\/sdk\/dist\//, /node_modules/],
      },
    },
  },
});
