// Stored in state: the texts of released-provider-texts.json `texts` name this path, and HANDLER_MODULES maps `testing/file-record` to it.
export * from "../../sandbox-records/handlers/file-record.js";
