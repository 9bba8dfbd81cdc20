import type { CountryCode } from "@payrail/account-formats"
import { ContactVerification } from "../customers/index.js"

/**
 * The regions whose customers authenticate strongly (PSD2 and the UK's SCA rules): the European Economic Area (the
 * 27 EU members, Iceland, Liechtenstein, Norway) and the United Kingdom, which are the contact-verifying regions
 * without Switzerland (it verifies contacts but is outside PSD2, so its customers do not use SCA).
 */
export const scaRegions: ReadonlySet<string> = new Set(
  [...ContactVerification.contactVerifyingRegions].filter((region) => region !== "CH")
)

/** Whether customers of `region` use strong customer authentication; a customer without a region does not. */
export const usesSca = (region: CountryCode.CountryCode | string | undefined): boolean =>
  region !== undefined && scaRegions.has(region)
