import type { CountryCode } from "@payrail/account-formats"

/**
 * The regions whose customers authenticate strongly (PSD2 and the UK's SCA rules): the European Economic Area (the
 * 27 EU members, Iceland, Liechtenstein, Norway) and the United Kingdom. Switzerland verifies contacts but is outside
 * PSD2, so its customers do not use SCA.
 */
export const scaRegions: ReadonlySet<string> = new Set([
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
  "GB"
])

/** Whether customers of `region` use strong customer authentication; a customer without a region does not. */
export const usesSca = (region: CountryCode.CountryCode | string | undefined): boolean =>
  region !== undefined && scaRegions.has(region)
