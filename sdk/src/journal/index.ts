export { PurchaseJournal, resetJournalCachesForTests, type JournalEntry, type IntentEntry, type ResumedMark } from "./journal.js";
export { FileStore, checkEntryName, type JournalStore } from "./store.js";
export { S3Store, parseS3Url, type S3Location, type S3Credentials, type S3StoreOptions } from "./s3.js";
export type { RemoteStoreOptions } from "./remote.js";
export {
  openJournal,
  openBucketStore,
  resolveJournal,
  journalUrlBesideState,
  BESIDE_STATE_PREFIX,
  forgetOrder,
  resetJournalBackendForTests,
  resetStoreClientsForTests,
  type JournalSettings,
  type ResolvedJournal,
  type HeldOrder,
  type Tidied,
} from "./open.js";
export { GcsStore, parseGcsUrl, type GcsLocation } from "./gcs.js";
export { AzureBlobStore, parseAzureBlobUrl, type AzureBlobLocation, type AzureAuth } from "./azblob.js";
export { purchaseDigest, purchaseInputDigests, changedInputs, type PurchaseInputs } from "./digest.js";
export { journalEntryKey, unscopedEntryKey, programScope, parseEntryKey, stackOfUrn, backendUrl, backendFingerprint, normalizeBackendUrl, type JournalIdentity } from "./key.js";
export { detectCi, ephemeralJournalWarning, resetCiWarningForTests } from "./ci.js";
