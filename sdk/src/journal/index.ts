export { PurchaseJournal, type JournalEntry } from "./journal.js";
