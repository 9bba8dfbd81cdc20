import { Schema } from "effect"
import type { CountryCode } from "@payrail/account-formats"

/** Where a customer's email or phone stands: a code is due or outstanding (`PENDING`), or it was confirmed. */
export const ContactStatus = Schema.Literal("PENDING", "VERIFIED")
export type ContactStatus = typeof ContactStatus.Type

/** The `contactVerification` of a customer: one status per contact it has, in regions that verify contacts. */
export const ContactVerification = Schema.Struct({
  email: Schema.optionalWith(ContactStatus, { exact: true }),
  phone: Schema.optionalWith(ContactStatus, { exact: true })
}).annotations({ identifier: "ContactVerification" })
export type ContactVerification = typeof ContactVerification.Type

/** Which contact a code verifies. */
export type ContactChannel = "email" | "phone"

/**
 * The regions whose providers verify a customer's email and phone before KYC (the reference's "EU-type providers"):
 * the European Economic Area (the 27 EU members, Iceland, Liechtenstein, Norway), the United Kingdom and Switzerland.
 */
export const contactVerifyingRegions: ReadonlySet<string> = new Set([
  "AT",
  "BE",
  "BG",
  "HR",
  "CY",
  "CZ",
  "DK",
  "EE",
  "FI",
  "FR",
  "DE",
  "GR",
  "HU",
  "IE",
  "IT",
  "LV",
  "LT",
  "LU",
  "MT",
  "NL",
  "PL",
  "PT",
  "RO",
  "SK",
  "SI",
  "ES",
  "SE",
  "IS",
  "LI",
  "NO",
  "GB",
  "CH"
])

/** Whether customers of `region` verify their contacts; a customer without a region does not. */
export const usesContactVerification = (region: CountryCode.CountryCode | undefined): boolean =>
  region !== undefined && contactVerifyingRegions.has(region)

interface Contacts {
  readonly region?: CountryCode.CountryCode | undefined
  readonly email?: string | undefined
  readonly phoneNumber?: string | undefined
  readonly contactVerification?: ContactVerification | undefined
}

/**
 * The `contactVerification` a customer has after a change from `previous` (absent for a new customer) to `next`:
 * absent outside the verifying regions; otherwise each contact present keeps its status while unchanged and is
 * `PENDING` when new or changed, and a contact that is absent has no status.
 */
export const reconcile = (previous: Contacts | undefined, next: Contacts): ContactVerification | undefined => {
  if (!usesContactVerification(next.region)) return undefined
  const kept = previous !== undefined && usesContactVerification(previous.region) ? previous.contactVerification : {}
  const status = (now: string | undefined, before: string | undefined, current: ContactStatus | undefined) =>
    now === undefined ? undefined : now === before && current !== undefined ? current : ("PENDING" as const)
  const email = status(next.email, previous?.email, kept?.email)
  const phone = status(next.phoneNumber, previous?.phoneNumber, kept?.phone)
  return { ...(email === undefined ? {} : { email }), ...(phone === undefined ? {} : { phone }) }
}
