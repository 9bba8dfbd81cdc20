import { Schema } from "effect"
import { CountryCode } from "./CountryCode.js"

/**
 * Bank identifiers with their real check algorithms. Each schema is a string refinement whose `jsonSchema`
 * annotation (`format`, `pattern`, lengths) becomes the API's `constraint` and whose description is the message
 * (`must be …`); no message ever contains the value. Identifiers are validated exactly as sent: no spaces, no
 * lower-case letters, no normalisation.
 */

const digitsAt = (value: string): Array<number> => [...value].map(Number)

/**
 * ABA routing number: 9 digits, a Federal Reserve prefix (`00`-`12`, `21`-`32`, `61`-`72`, `80`) and the weighted
 * check `3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9) ≡ 0 (mod 10)`; all zeros is refused.
 */
export const isAbaRoutingNumber = (value: string): boolean => {
  if (!/^[0-9]{9}$/.test(value)) return false
  const prefix = Number(value.slice(0, 2))
  const knownPrefix = prefix <= 12 || (prefix >= 21 && prefix <= 32) || (prefix >= 61 && prefix <= 72) || prefix === 80
  const d = digitsAt(value)
  const sum = 3 * (d[0]! + d[3]! + d[6]!) + 7 * (d[1]! + d[4]! + d[7]!) + (d[2]! + d[5]! + d[8]!)
  return knownPrefix && sum % 10 === 0 && value !== "000000000"
}

/** A US ABA routing number with a valid prefix and check digit. */
export const AbaRoutingNumber = Schema.String.pipe(
  Schema.filter(isAbaRoutingNumber, {
    description: "a 9-digit ABA routing number with a valid check digit",
    jsonSchema: { format: "aba-routing-number", pattern: "^[0-9]{9}$", minLength: 9, maxLength: 9 }
  }),
  Schema.annotations({ identifier: "AbaRoutingNumber" })
)

/** IBAN length per country, from the SWIFT IBAN registry (release 2024): the countries that issue IBANs. */
export const ibanLengths: ReadonlyMap<string, number> = new Map(
  (
    "AD24 AE23 AL28 AT20 AZ28 BA20 BE16 BG22 BH22 BI27 BR29 BY28 CH21 CR22 CY28 CZ24 DE22 DJ27 DK18 DO28 EE20 EG29 " +
    "ES24 FI18 FK18 FO18 FR27 GB22 GE22 GI23 GL18 GR27 GT28 HN28 HR21 HU28 IE22 IL23 IQ23 IS26 IT27 JO30 KW30 KZ20 " +
    "LB28 LC32 LI21 LT20 LU20 LV21 LY25 MC27 MD24 ME22 MK19 MN20 MR27 MT31 MU30 NI28 NL18 NO15 OM23 PK24 PL28 PS29 " +
    "PT25 QA29 RO24 RS22 RU33 SA24 SC31 SD18 SE24 SI19 SK24 SM27 SO23 ST25 SV28 TL23 TN24 TR26 UA29 VA22 VG24 XK20 YE30"
  )
    .split(" ")
    .map((entry) => [entry.slice(0, 2), Number(entry.slice(2))] as const)
)

// ISO 7064 MOD 97-10 over the rearranged IBAN, letters as 10-35, folded digit by digit to stay within safe integers.
const mod97 = (value: string): number => {
  let remainder = 0
  for (const char of value.slice(4) + value.slice(0, 4)) {
    const code = char.charCodeAt(0)
    const number = code >= 65 ? code - 55 : code - 48
    remainder = number >= 10 ? (remainder * 100 + number) % 97 : (remainder * 10 + number) % 97
  }
  return remainder
}

/**
 * IBAN in electronic form: a registry country, that country's exact length, check digits `02`-`98`, an upper-case
 * alphanumeric BBAN, and `mod 97 = 1` (ISO 13616).
 */
export const isIban = (value: string): boolean => {
  if (!/^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/.test(value)) return false
  const checkDigits = Number(value.slice(2, 4))
  return (
    ibanLengths.get(value.slice(0, 2)) === value.length && checkDigits >= 2 && checkDigits <= 98 && mod97(value) === 1
  )
}

/** An IBAN of any registry country (see `isIban`). */
export const Iban = Schema.String.pipe(
  Schema.filter(isIban, {
    description: "an IBAN with its country's length and valid mod-97 check digits",
    jsonSchema: { format: "iban", pattern: "^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$", minLength: 15, maxLength: 34 }
  }),
  Schema.annotations({ identifier: "Iban" })
)

/**
 * An IBAN of one country whose BBAN (the part after the check digits) matches `bbanPattern`, e.g.
 * `countryIban("DK", "[0-9]{14}")`; also passes every `isIban` check.
 */
export const countryIban = (country: string, bbanPattern: string) => {
  const pattern = `^${country}[0-9]{2}${bbanPattern}$`
  const regex = new RegExp(pattern)
  const length = ibanLengths.get(country)
  return Schema.String.pipe(
    Schema.filter((value) => regex.test(value) && isIban(value), {
      description: `an IBAN of country ${country} with valid mod-97 check digits`,
      jsonSchema: { format: "iban", pattern, ...(length === undefined ? {} : { minLength: length, maxLength: length }) }
    })
  )
}

const clabeWeights = [3, 7, 1]

/** CLABE: 18 digits whose last is `(10 - Σ (dᵢ·wᵢ mod 10) mod 10) mod 10` with weights 3, 7, 1 repeating. */
export const isClabe = (value: string): boolean => {
  if (!/^[0-9]{18}$/.test(value)) return false
  const d = digitsAt(value)
  const sum = d.slice(0, 17).reduce((total, digit, index) => total + ((digit * clabeWeights[index % 3]!) % 10), 0)
  return (10 - (sum % 10)) % 10 === d[17]
}

/** A Mexican CLABE (SPEI account) with a valid check digit. */
export const Clabe = Schema.String.pipe(
  Schema.filter(isClabe, {
    description: "an 18-digit CLABE with a valid check digit",
    jsonSchema: { format: "clabe", pattern: "^[0-9]{18}$", minLength: 18, maxLength: 18 }
  }),
  Schema.annotations({ identifier: "Clabe" })
)

const isCountry = Schema.is(CountryCode)

/**
 * SWIFT/BIC (ISO 9362): 4-letter institution, an assigned ISO 3166 country (or `XK`, used for Kosovo), a
 * 2-character location and an optional 3-character branch.
 */
export const isSwiftBic = (value: string): boolean => {
  if (!/^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(value)) return false
  const country = value.slice(4, 6)
  return isCountry(country) || country === "XK"
}

/** A SWIFT/BIC code of 8 or 11 characters (see `isSwiftBic`). */
export const SwiftBic = Schema.String.pipe(
  Schema.filter(isSwiftBic, {
    description: "a SWIFT/BIC code: bank, ISO country, location and optional branch",
    jsonSchema: { format: "bic", pattern: "^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$", minLength: 8, maxLength: 11 }
  }),
  Schema.annotations({ identifier: "SwiftBic" })
)

const fixedPattern = (pattern: string, format: string, description: string, identifier: string) =>
  Schema.String.pipe(
    Schema.filter((value) => new RegExp(pattern).test(value), { description, jsonSchema: { format, pattern } }),
    Schema.annotations({ identifier })
  )

/** A UK sort code: 6 digits, no separators. (The account-level modulus check needs Pay.UK's tables; not applied.) */
export const UkSortCode = fixedPattern("^[0-9]{6}$", "uk-sort-code", "a 6-digit UK sort code", "UkSortCode")

/** A UK account number: exactly 8 digits. */
export const UkAccountNumber = fixedPattern(
  "^[0-9]{8}$",
  "uk-account-number",
  "an 8-digit UK account number",
  "UkAccountNumber"
)

/** An Indian IFSC: 4-letter bank code, `0`, 6-character branch code. */
export const Ifsc = fixedPattern("^[A-Z]{4}0[A-Z0-9]{6}$", "ifsc", "an 11-character IFSC code", "Ifsc")

/** A Canadian financial institution number: 3 digits. */
export const CanadianInstitutionNumber = fixedPattern(
  "^[0-9]{3}$",
  "ca-institution-number",
  "a 3-digit Canadian institution number",
  "CanadianInstitutionNumber"
)

/** A Canadian branch transit number: 5 digits. */
export const CanadianTransitNumber = fixedPattern(
  "^[0-9]{5}$",
  "ca-transit-number",
  "a 5-digit Canadian transit number",
  "CanadianTransitNumber"
)
