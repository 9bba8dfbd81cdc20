import { DateTime, Duration, Effect, Layer } from "effect"
import { CardIssuer } from "@payrail/core"

/**
 * The sandbox card issuer and processor (docs/cards.md):
 * - Card numbers are Visa test numbers: the BIN `400000`, nine digits drawn from the card's secret, and the Luhn
 *   check digit; the CVC is three more digits of it; cards expire three years after issuance, at the end of the
 *   month they were issued in. Nothing is stored but the secret: the number is derived again for the reveal page.
 * - Issuance by the last 3 characters of the cardholder's `platformCustomerId` (the reference API reads the
 *   `platformCardId`, which our spec has the server generate): `001` stays `PROCESSING`, `002` is rejected
 *   (`CLOSED`, `ISSUER_REJECTED`), `005` activates after about 30 seconds, anything else activates at once.
 * - Funding sources whose internal account id ends in `002` or `003` are ineligible.
 */

export const bin = "400000"

/** The Luhn check digit of `digits` (the digit that makes `digits` + it pass the check). */
export const luhnCheckDigit = (digits: string): string => {
  let sum = 0
  for (let index = 0; index < digits.length; index++) {
    // From the right, the digit beside the check digit is doubled, then every other one.
    let digit = Number(digits[digits.length - 1 - index])
    if (index % 2 === 0) {
      digit *= 2
      if (digit > 9) digit -= 9
    }
    sum += digit
  }
  return String((10 - (sum % 10)) % 10)
}

/** Whether `number` passes the Luhn check. */
export const passesLuhn = (number: string): boolean =>
  /^[0-9]{2,}$/.test(number) && luhnCheckDigit(number.slice(0, -1)) === number.slice(-1)

const digitsOf = (secret: string, shift: bigint, count: number): string =>
  ((BigInt(`0x${secret}`) >> shift) % 10n ** BigInt(count)).toString().padStart(count, "0")

/** The card number the sandbox derives from a card's secret (32 hex digits). */
export const panOf = (secret: string): string => {
  const body = `${bin}${digitsOf(secret, 0n, 9)}`
  return `${body}${luhnCheckDigit(body)}`
}

/** The CVC the sandbox derives from a card's secret. */
export const cvcOf = (secret: string): string => digitsOf(secret, 64n, 3)

/** What issuance does, by the cardholder's `platformCustomerId` suffix. */
export const provisioningFor = (platformCustomerId: string | undefined): CardIssuer.Provisioning => {
  switch ((platformCustomerId ?? "").slice(-3)) {
    case "001":
      return { _tag: "StayProcessing" }
    case "002":
      return { _tag: "Reject" }
    case "005":
      return { _tag: "Activate", delay: Duration.seconds(30) }
    default:
      return { _tag: "Activate", delay: Duration.zero }
  }
}

const refOf = (cardId: string): string => cardId.replace(/^Card:/, "").replaceAll("-", "")

const expiryOf = (issuedAt: DateTime.Utc) => {
  const parts = DateTime.toParts(issuedAt)
  return { expMonth: parts.month, expYear: parts.year + 3 }
}

export const layer: Layer.Layer<CardIssuer.CardIssuer> = Layer.succeed(
  CardIssuer.CardIssuer,
  CardIssuer.CardIssuer.of({
    issue: (request) =>
      Effect.sync(() => {
        const pan = panOf(request.secret)
        return {
          details: {
            brand: "VISA",
            last4: pan.slice(-4),
            ...expiryOf(request.issuedAt),
            // From the card's id, never from its secret: the references are public, the number and CVC are not.
            issuerRef: `sandbox_issuer_${refOf(request.cardId)}`,
            processorRef: `sandbox_processor_${refOf(request.cardId)}`
          },
          issuerSecret: request.secret,
          provisioning: provisioningFor(request.platformCustomerId)
        }
      }),
    sensitiveDetails: (stored) =>
      Effect.succeed({
        brand: stored.card.brand,
        pan: panOf(stored.issuerSecret),
        cvc: cvcOf(stored.issuerSecret),
        expMonth: stored.card.expMonth,
        expYear: stored.card.expYear
      })
  })
)
