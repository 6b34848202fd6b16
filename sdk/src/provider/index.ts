export { UNKNOWN, isUnknown, containsUnknown } from "./unknown.js";
export { toPlainJson, type Json } from "./plain-json.js";
export { PartialFailureError, partialFailure } from "./partial-failure.js";
export {
  readSettings,
  requireApiSettings,
  defaultJournalDir,
  MissingSettingError,
  InvalidSettingError,
  SETTING_SOURCES,
  type ProviderSettings,
  type CompleteSettings,
  type ConfigSource,
} from "./config.js";
export { createLog, consoleSink, resourceName, type LogSink, type ProviderLog } from "./log.js";
export { engineSink, flushEngineLog } from "./engine-log.js";
export { createContext, type ProviderContext } from "./context.js";
export { clientFor, closeClients } from "./client-cache.js";
export type { ResourceHandlers, HandlerModule, ProviderMethod } from "./handlers.js";
export { productCatalogue, findProduct, catalogueForPurchase, settingAtFault, type SettingFault } from "./product-catalogue.js";
