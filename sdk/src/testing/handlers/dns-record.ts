// Stored in state: the texts of released-provider-texts.json `texts` name this path, and HANDLER_MODULES maps `testing/dns-record` to it.
export * from "../../sandbox-records/handlers/dns-record.js";
