// The engine for tests, the demo and benchmarks: `ensureEngine()` finds or
// builds the CLI, `isolatedEnvironment()` gives one run its private backend.
export { ensureEngine, EngineUnavailableError, INSTALL_INSTRUCTIONS, type Engine, type EngineSource, type EnsureEngineOptions } from "./provision.js";
export { isolatedEnvironment, type IsolatedEnvironment, type IsolatedEnvironmentOptions } from "./environment.js";
export { cacheLayout, engineCacheRoot, repoRoot, YAML_LANGUAGE_HOST, type CacheLayout } from "./paths.js";
export { PULUMI_VERSION, LANGUAGE_HOST_SDK_VERSION, MINIMUM_PULUMI_VERSION, YAML_LANGUAGE_HOST_VERSION } from "./version.js";
export { inlineStack, projectDir, type InlineStackOptions } from "./automation.js";
