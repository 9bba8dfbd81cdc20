import { Context, type DateTime, type Duration, type Effect } from "effect"
import type { Platform } from "../platforms/index.js"
import type { CardBrand, IssuedDetails, StoredCard } from "./Card.js"

/** What the issuer does with a new card: activate it after `delay` (zero: at once), keep it provisioning, or refuse it. */
export type Provisioning =
  | { readonly _tag: "Activate"; readonly delay: Duration.Duration }
  | { readonly _tag: "StayProcessing" }
  | { readonly _tag: "Reject" }

export interface IssueRequest {
  readonly platform: Platform.Platform
  readonly cardId: string
  readonly customerId: string
  readonly platformCustomerId?: string | undefined
  readonly currency: string
  /** 16 random bytes (hex) the kit drew for the card: the sandbox issuer derives the card number and CVC from them. */
  readonly secret: string
  readonly issuedAt: DateTime.Utc
}

/** The issuer's answer: the card's public details, the secret it keeps for it, and how provisioning goes. */
export interface Issued {
  readonly details: IssuedDetails
  /** Stored with the card, never shown: the issuer derives the full number and CVC from it. */
  readonly issuerSecret: string
  readonly provisioning: Provisioning
}

/** The full card data, only for the reveal page. */
export interface SensitiveDetails {
  readonly brand: CardBrand
  readonly pan: string
  readonly cvc: string
  readonly expMonth: number
  readonly expYear: number
}

/**
 * The card issuer (and its processor). `@payrail/sandbox` implements it (test BIN numbers that pass the Luhn check,
 * the reference's issuance magic values); a real issuer plugs in here. `issue` must be safe to
 * repeat for one `cardId`.
 */
export class CardIssuer extends Context.Tag("@payrail/core/CardIssuer")<
  CardIssuer,
  {
    readonly issue: (request: IssueRequest) => Effect.Effect<Issued>
    /** The card's full number, CVC and expiry, for the reveal page only. */
    readonly sensitiveDetails: (stored: StoredCard) => Effect.Effect<SensitiveDetails>
  }
>() {}
