import { Card, type CardReveal, type Platform } from "@payrail/core"
import * as Fixtures from "../Fixtures.js"

const uuid = () => globalThis.crypto.randomUUID()

/** A fresh customer id. */
export const customerId = (): string => `Customer:${uuid()}`

/** A fresh internal account id. */
export const accountId = (): string => `InternalAccount:${uuid()}`

/**
 * A stored card of `platformId` created at `Fixtures.at(offsetMillis)`, `ACTIVE` with a funding source, at version 1,
 * with every optional field unless `overrides` change them.
 */
export const card = (
  platformId: Platform.PlatformId,
  options: {
    readonly offsetMillis?: number
    readonly customerId?: string
    readonly fundingSource?: string
    readonly status?: Card.CardStatus
    readonly bare?: boolean
  } = {}
): Card.StoredCard => {
  const id = uuid()
  const createdAt = Fixtures.at(options.offsetMillis ?? 0)
  const status = options.status ?? "ACTIVE"
  return {
    platformId,
    version: 1,
    issuerSecret: uuid().replaceAll("-", ""),
    card: new Card.Card({
      id: Card.CardId.make(`Card:${id}`),
      customerId: options.customerId ?? customerId(),
      ...(options.bare === true ? {} : { platformCustomerId: `crm-${id.slice(0, 8)}` }),
      status,
      ...(status === "CLOSED" ? { stateReason: "CLOSED_BY_PLATFORM" as const } : {}),
      brand: "VISA",
      form: "VIRTUAL",
      last4: "4242",
      expMonth: 12,
      expYear: 2029,
      ...(status === "CLOSED" ? {} : { fundingSource: options.fundingSource ?? accountId() }),
      currency: "USD",
      ...(options.bare === true ? {} : { maxSpendPerTransaction: 50_000 }),
      processorRef: `processor_${id}`,
      issuerRef: `issuer_${id}`,
      platformCardId: id,
      createdAt,
      updatedAt: createdAt
    })
  }
}

/** A reveal of `cardId`, created at `Fixtures.at(offsetMillis)` and expiring 5 minutes later, with a fresh hash. */
export const reveal = (
  platformId: Platform.PlatformId,
  cardId: Card.CardId,
  offsetMillis = 0
): CardReveal.StoredReveal => ({
  tokenHash: uuid().replaceAll("-", "").padEnd(64, "0"),
  platformId,
  cardId,
  createdAt: Fixtures.at(offsetMillis),
  expiresAt: Fixtures.at(offsetMillis + 300_000)
})
