// @peculiar/x509 pulls in tsyringe, which throws at import time unless a
// Reflect metadata polyfill is already loaded, so the polyfill must come first.
// Every CA file imports x509 from here, never from the package directly.
import "reflect-metadata";
import * as x509 from "@peculiar/x509";
import { webcrypto } from "node:crypto";

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

export { x509 };
