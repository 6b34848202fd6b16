// SDKs for Go, Python, .NET and Node.js from sdk/schema.json, for tests and
// `npm run sdks`: `generateSdks()` builds the generator when needed and runs it.
export { generateSdks, SdkGenerationError, type GenerateSdksOptions, type GeneratedSdk } from "./generate.js";
export {
  DOTNET_CODEGEN_VERSION,
  ensureGenerator,
  FLAVORS,
  flavorFor,
  generatorPath,
  LANGUAGES,
  type GeneratorFlavor,
  type Language,
} from "./build.js";
