export { PurchaseJournal, resetJournalCachesForTests, type JournalEntry, type IntentEntry, type ResumedMark } from "./journal.js";
export { FileStore, checkEntryName, type JournalStore } from "./store.js";
export { S3Store, parseS3Url, type S3Location, type S3Credentials, type S3StoreOptions } from "./s3.js";
export { openJournal, forgetOrder, type JournalSettings, type HeldOrder, type Tidied } from "./open.js";
export { purchaseDigest, purchaseInputDigests, changedInputs, type PurchaseInputs } from "./digest.js";
export { journalEntryKey, unscopedEntryKey, programScope, parseEntryKey, stackOfUrn, backendUrl, backendFingerprint, normalizeBackendUrl, type JournalIdentity } from "./key.js";
export { detectCi, ephemeralJournalWarning, resetCiWarningForTests } from "./ci.js";
