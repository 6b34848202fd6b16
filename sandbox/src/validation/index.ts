// The real-mode validation authority: checks what is actually published
// (HTTP files, DNS TXT/CNAME) instead of trusting the sandbox's own records.
export { createRealValidator } from "./validator.js";
export type { CheckResult, DcvRecordToCheck, RealValidator, RealValidatorOptions } from "./types.js";
