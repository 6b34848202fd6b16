/**
 * What an `Order` reports besides its inputs (every input is an output too,
 * as `check` normalised it): declared once, for the package schema, the
 * output types of the class and the reference.
 */
import { CERT_STATUSES } from "../../client/vocabulary.js";
import * as t from "../../schema/property.js";

/** CreateOrder's charge, as stored (members the answer left out are not stored). */
export const ORDER_PRICE = t.objectType("OrderPrice", "What CreateOrder's answer said was charged.", {
  basePrice: { description: "The product's price (`unit_price`), a decimal string.", type: t.string },
  sanCount: { description: "Extra names charged (`extra_san_count`).", type: t.integer },
  sanPrice: { description: "Price of the extra names (`san_price`).", type: t.string },
  wildcardCount: { description: "Extra wildcards charged (`extra_wc_count`).", type: t.integer },
  wildcardPrice: { description: "Price of the extra wildcards (`wildcard_price`).", type: t.string },
  discount: { description: "Coupon discount (`discount_amount`).", type: t.string },
  total: { description: "What was charged (`payable_amount`, else `total_amount`).", type: t.string },
});

const certStatuses = CERT_STATUSES.map((s) => `${s.value} ${s.meaning}`).join(", ");

export const ORDER_OUTPUTS = {
  quotedPrice: t.output(
    "Price of the purchase before any coupon (a decimal string), computed at preview from the catalogue: what `up` will spend. A price change alone never causes an update.",
    t.string,
  ),
  orderNo: t.output("The order number (also the resource id).", t.string, { required: true }),
  price: t.output(
    "What CreateOrder's answer said was charged; absent for adopted orders (the API does not report it). A member the answer left out reads as zero.",
    ORDER_PRICE,
    { tsOutputType: "OrderPriceState" },
  ),
  certStatus: t.output(`The certificate state (\`cert_status\`) from ApplySign and the last status read: ${certStatuses}.`, t.integer, { tsOutputType: "OpenInt<CertStatus>" }),
  requestId: t.output(
    "The signing request id from ApplySign (absent until submitted, and when only GetRecord saw the submission); changes when the verification method changes.",
    t.string,
  ),
  installmentsCount: t.output("How many certificates the order holds (a term longer than one certificate's lifetime).", t.integer),
  paidAt: t.output("ISO time the provider received CreateOrder's answer: the service reports no payment time, and takes the money when it answers.", t.string),
  termEndsAt: t.output(
    "ISO time the bought term ends (`paidAt` + months): no certificate of the order reaches past it, and the renewal purchase comes at its end. Absent for adopted orders (the API reports an order's term only when buying).",
    t.string,
  ),
  installmentNo: t.output("The installment (1-based) the order is on: 1 at purchase, one more after each reissue.", t.integer),
  certId: t.output("The current certificate's id, as the last status read reported it.", t.string),
  certNotBefore: t.output("The current certificate's notBefore as last learned from the service (ISO); absent until learned.", t.string),
  certNotAfter: t.output("The current certificate's notAfter as last learned from the service (ISO); absent until learned.", t.string),
  certNotAfterAtLeast: t.output(
    "A lower bound for the current certificate's notAfter while it is not known (set when a reissue is submitted).",
    t.string,
  ),
  renewsAt: t.output("When the next reissue (or, with no installment left, the renewal purchase) is due (ISO); absent until known.", t.string),
  adopted: t.output("True when the order was adopted, not bought by this resource.", t.boolean),
  resumedAt: t.output(
    "ISO time this resource's create took the order over without buying it: resumed from the purchase journal (bought by a create that did not finish) or adopted (`adoptOrderNo`); absent when it bought it. A resource this one replaces, holding the same order, is then not cancelled by its delete.",
    t.string,
  ),
  accountId: t.output(
    "The app id of the API key that bought or adopted the order (GetUserData's `api_key.app_id`: the key's public identifier, never its secret). Refresh and destroy refuse to drop, cancel or release the order under another account's key.",
    t.string,
  ),
} as const satisfies t.PropertyTable;
