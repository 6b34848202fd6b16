/**
 * The members of an Order's `companyInfo` (spec 2.4), as the package schema
 * and the reference state them. The client's `CompanyInfo` type is held to
 * this table by the compiler (below).
 */
import type { CompanyInfo } from "../../client/types.js";
import * as t from "../../schema/property.js";

const member = (description: string) => ({ description, type: t.string });
const required = (description: string) => ({ description, type: t.string, required: true as const });

export const COMPANY_INFO_MEMBERS = {
  companyName: required("Full company name; with a custom CSR, the CSR's organisation must equal it."),
  countryCode: required("Two-letter country/region code."),
  contactFirst: required("Contact's family name."),
  contactLast: required("Contact's given name."),
  email: required("Contact e-mail."),
  registrationNo: member("Registration or business licence number (`registration_no`)."),
  countryName: member("Country/region name."),
  province: member("Province/state in pinyin or English (`province_pinyin`)."),
  city: member("City in pinyin or English (`city_pinyin`)."),
  address: member("Street address."),
  postalCode: member("Postal code."),
  phone: member("Contact phone number."),
  contactTitle: member("Contact's position."),
  idNumber: member("Contact's identity document number."),
} as const satisfies t.PropertyTable;

/** The object type of `companyInfo`. */
export const COMPANY_INFO = t.objectType("CompanyInfo", "The organisation an OV/EV certificate names (spec 2.4).", COMPANY_INFO_MEMBERS);

/** The members as the reference's type column lists them: required first, optional ones with `?`. @example companyMembers().startsWith("companyName, countryCode") */
export function companyMembers(): string {
  return t
    .entries(COMPANY_INFO_MEMBERS)
    .map(([name, p]) => (p.required ? name : `${name}?`))
    .join(", ");
}

// The client's type has exactly these members, required exactly where the table says.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type RequiredKeys<T> = { [K in keyof T]-?: undefined extends T[K] ? never : K }[keyof T];
type TableRequired = { [K in keyof typeof COMPANY_INFO_MEMBERS]: (typeof COMPANY_INFO_MEMBERS)[K] extends { required: true } ? K : never }[keyof typeof COMPANY_INFO_MEMBERS];
const sameMembers: Same<keyof CompanyInfo, keyof typeof COMPANY_INFO_MEMBERS> = true;
const sameRequired: Same<RequiredKeys<CompanyInfo>, TableRequired> = true;
void sameMembers;
void sameRequired;
