/**
 * The `Order` resource as one declaration: its token, description, and
 * every property (the inputs with their rules in `inputs.ts`, the outputs
 * it adds in `outputs.ts`). The package schema, the class's argument and
 * output types and the reference page are generated from it.
 */
import { resource } from "../../schema/property.js";
import { ORDER_INPUTS } from "./inputs.js";
import { ORDER_OUTPUTS } from "./outputs.js";

export const ORDER_PROPERTIES = { ...ORDER_INPUTS, ...ORDER_OUTPUTS } as const;

export const ORDER = resource("Order", {
  description:
    "A certificate order with the Certificate Reseller Partner API: `up` buys it (CreateOrder, never retried) and submits it for validation " +
    "(ApplySign); `destroy` cancels it and reports the refund. `preview` checks every input against the product and shows `quotedPrice` " +
    "before anything is spent.",
  properties: ORDER_PROPERTIES,
  replacement: "buys a new order",
  example: `
const order = new certs.Order("site", {
  productCode: "sandbox-dv-multi",
  domain: "example.com",
  sanDomains: ["www.example.com"],
  verificationMethod: "dns",
  renewBeforeDays: 30,
});
export const orderNo = order.orderNo;`,
});
