import { Schema } from "effect"
import { Email } from "./FieldFormat.js"

/**
 * Brazilian Pix keys and tax ids. A Pix key is one of five kinds; each kind has its own form, and CPF and CNPJ
 * carry mod-11 check digits. Messages never contain the key.
 */

/** The kind of a Pix key: a person's CPF, a company's CNPJ, an e-mail, a phone number or a random (EVP) key. */
export const PixKeyType = Schema.Literal("CPF", "CNPJ", "EMAIL", "PHONE", "RANDOM")
export type PixKeyType = typeof PixKeyType.Type

const digitsOf = (value: string): Array<number> => [...value].map(Number)

// Receita Federal mod-11: remainder below 2 gives 0, else 11 - remainder.
const checkDigit = (digits: ReadonlyArray<number>, weights: ReadonlyArray<number>): number => {
  const remainder = digits.reduce((sum, digit, index) => sum + digit * weights[index]!, 0) % 11
  return remainder < 2 ? 0 : 11 - remainder
}

const allSame = (value: string): boolean => /^(\d)\1*$/.test(value)

/** CPF: 11 digits, not all equal, with both mod-11 check digits. */
export const isCpf = (value: string): boolean => {
  if (!/^[0-9]{11}$/.test(value) || allSame(value)) return false
  const d = digitsOf(value)
  const first = checkDigit(d.slice(0, 9), [10, 9, 8, 7, 6, 5, 4, 3, 2])
  const second = checkDigit(d.slice(0, 10), [11, 10, 9, 8, 7, 6, 5, 4, 3, 2])
  return d[9] === first && d[10] === second
}

/** CNPJ: 14 digits, not all equal, with both mod-11 check digits (numeric CNPJ). */
export const isCnpj = (value: string): boolean => {
  if (!/^[0-9]{14}$/.test(value) || allSame(value)) return false
  const d = digitsOf(value)
  const first = checkDigit(d.slice(0, 12), [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2])
  const second = checkDigit(d.slice(0, 13), [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2])
  return d[12] === first && d[13] === second
}

const isEmail = Schema.is(Email)
const brazilianPhone = /^\+55[1-9][0-9][0-9]{8,9}$/
const randomKey = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/**
 * Whether `key` has the form of a Pix key of `type`: CPF or CNPJ digits with valid check digits, an e-mail of at most
 * 77 characters, a Brazilian phone `+55` + area code + 8 or 9 digits, or a lower-case UUID for a random key.
 */
export const isPixKeyOf = (type: PixKeyType, key: string): boolean => {
  switch (type) {
    case "CPF":
      return isCpf(key)
    case "CNPJ":
      return isCnpj(key)
    case "EMAIL":
      return key.length <= 77 && isEmail(key)
    case "PHONE":
      return brazilianPhone.test(key)
    case "RANDOM":
      return randomKey.test(key)
  }
}

/** The kind a Pix key has, if it has the form of one. */
export const pixKeyTypeOf = (key: string): PixKeyType | undefined =>
  PixKeyType.literals.find((type) => isPixKeyOf(type, key))

/** A Pix key of any kind (see `isPixKeyOf`); whether it matches its declared `pixKeyType` is checked by the account. */
export const PixKey = Schema.String.pipe(
  Schema.maxLength(77, { description: "a Pix key of at most 77 characters" }),
  Schema.filter((key) => pixKeyTypeOf(key) !== undefined, {
    description: "a Pix key: CPF, CNPJ, e-mail, +55 phone number or random key",
    jsonSchema: { format: "pix-key", maxLength: 77 }
  }),
  Schema.annotations({ identifier: "PixKey" })
)

/** A Brazilian tax id: a CPF (11 digits) or a CNPJ (14 digits), digits only, with valid check digits. */
export const BrazilianTaxId = Schema.String.pipe(
  Schema.filter((value) => isCpf(value) || isCnpj(value), {
    description: "a CPF (11 digits) or CNPJ (14 digits) with valid check digits",
    jsonSchema: { format: "br-tax-id", pattern: "^([0-9]{11}|[0-9]{14})$", minLength: 11, maxLength: 14 }
  }),
  Schema.annotations({ identifier: "BrazilianTaxId" })
)
