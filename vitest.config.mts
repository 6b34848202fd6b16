import { defineConfig } from "vitest/config";

// Each component owns its vitest project (its own timeouts, setup and pool);
// the root only lists them so `vitest run` is the one test command.
export default defineConfig({
  test: {
    projects: ["sdk", "sandbox", "policy", "examples", "tests/e2e"],
  },
});
