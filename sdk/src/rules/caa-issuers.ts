/**
 * The CAA issuer domains (RFC 8659 `issue` / `issuewild` values) each brand's
 * CA recognises as naming itself, by the product list's `brand_code`.
 *
 * An assumption, declared in one place: the Partner API publishes neither
 * which CA stands behind a brand nor its CAA domains. The sandbox's brands
 * get `.test` domains of their own (the sandbox does not enforce CAA). The
 * public CAs' domains are those the CAs document; their brand codes are
 * guesses at what a reseller's product list calls them — a brand not listed
 * here is "unknown" (a preview warning, never a failure), and an Order's
 * `caaIssuerDomains` overrides this table for that Order.
 */

/** Sectigo (formerly Comodo CA) and its retail brand PositiveSSL issue as these. */
const SECTIGO = ["sectigo.com", "comodoca.com", "comodo.com", "usertrust.com", "trust-provider.com"] as const;
/** DigiCert and the brands it issues for. */
const DIGICERT = ["digicert.com", "www.digicert.com", "digicert.ne.jp", "cybertrust.ne.jp", "symantec.com", "thawte.com", "geotrust.com", "rapidssl.com"] as const;

/** Issuer domains by brand code. */
export const CAA_ISSUER_DOMAINS = {
  // The sandbox's three brands (its catalogue: sandbox-ca, example-ca, longlife-pki).
  sandbox: ["sandbox-ca.test"],
  exampleca: ["example-ca.test"],
  longlife: ["longlife-pki.test"],
  sectigo: SECTIGO,
  comodo: SECTIGO,
  positivessl: SECTIGO,
  digicert: DIGICERT,
  geotrust: DIGICERT,
  rapidssl: DIGICERT,
  thawte: DIGICERT,
  globalsign: ["globalsign.com"],
} as const satisfies Readonly<Record<string, readonly string[]>>;

/**
 * A brand's issuer domains, or `undefined` for a brand the table does not
 * know (compared without regard to case).
 *
 * @example
 * caaIssuerDomainsOf("sandbox") // ["sandbox-ca.test"]
 * caaIssuerDomainsOf("acme-trust") // undefined
 */
export function caaIssuerDomainsOf(brandCode: string | undefined): readonly string[] | undefined {
  if (brandCode === undefined) return undefined;
  const key = brandCode.trim().toLowerCase();
  return Object.hasOwn(CAA_ISSUER_DOMAINS, key) ? CAA_ISSUER_DOMAINS[key as keyof typeof CAA_ISSUER_DOMAINS] : undefined;
}
