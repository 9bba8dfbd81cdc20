import { Schema } from "effect"
import type { ExternalAccountEvent, ExternalAccountStatus } from "./ExternalAccountStatus.js"

/** No internal account with this id on the caller's platform. Code `NOT_FOUND` (404). */
export class InternalAccountNotFound extends Schema.TaggedError<InternalAccountNotFound>()("InternalAccountNotFound", {
  code: Schema.tag("NOT_FOUND"),
  reason: Schema.String,
  details: Schema.Struct({ accountId: Schema.String })
}) {
  static of(accountId: string): InternalAccountNotFound {
    return new InternalAccountNotFound({ reason: "Internal account not found", details: { accountId } })
  }
}

/** No external account with this id on the caller's platform (or it was deleted). Code `NOT_FOUND` (404). */
export class ExternalAccountNotFound extends Schema.TaggedError<ExternalAccountNotFound>()("ExternalAccountNotFound", {
  code: Schema.tag("NOT_FOUND"),
  reason: Schema.String,
  details: Schema.Struct({ accountId: Schema.String })
}) {
  static of(accountId: string): ExternalAccountNotFound {
    return new ExternalAccountNotFound({ reason: "External account not found", details: { accountId } })
  }
}

/** The rule an ownership challenge request broke. */
export const ChallengeRule = Schema.Literal(
  "challenge_requires_self_custody_wallet",
  "challenge_not_started",
  "challenge_expired",
  "account_changed_meanwhile"
)
export type ChallengeRule = typeof ChallengeRule.Type

const challengeReasons: { readonly [K in ChallengeRule]: string } = {
  challenge_requires_self_custody_wallet:
    "Only first-party self-custody wallets awaiting verification take a challenge",
  challenge_not_started: "No ownership challenge is open for this account; start one",
  challenge_expired: "The challenge has expired; start a new one",
  account_changed_meanwhile: "The account changed meanwhile; start a new challenge"
}

/** The ownership challenge was not started, has expired, or was answered already. Code `CONFLICT` (409). */
export class OwnershipChallengeUnavailable extends Schema.TaggedError<OwnershipChallengeUnavailable>()(
  "OwnershipChallengeUnavailable",
  { code: Schema.tag("CONFLICT"), reason: Schema.String, details: Schema.Struct({ rule: ChallengeRule }) }
) {
  static of(rule: ChallengeRule): OwnershipChallengeUnavailable {
    return new OwnershipChallengeUnavailable({ reason: challengeReasons[rule], details: { rule } })
  }
}

/** The owner already has a live external account with this account type and identifier. Code `CONFLICT` (409). */
export class ExternalAccountExists extends Schema.TaggedError<ExternalAccountExists>()("ExternalAccountExists", {
  code: Schema.tag("CONFLICT"),
  reason: Schema.String
}) {
  static of(): ExternalAccountExists {
    return new ExternalAccountExists({
      reason: "The owner already has an external account with this account type and identifier"
    })
  }
}

/**
 * The rail says the account does not exist or cannot receive payments. Spec code `INVALID_BANK_ACCOUNT` (400 in
 * `api`): the external account must not be created. The reason never repeats account data.
 */
export class InvalidBankAccount extends Schema.TaggedError<InvalidBankAccount>()("InvalidBankAccount", {
  code: Schema.tag("INVALID_BANK_ACCOUNT"),
  reason: Schema.String
}) {
  static of(): InvalidBankAccount {
    return new InvalidBankAccount({ reason: "The bank account is invalid or cannot receive payments" })
  }
}

/**
 * An event that the account's current status does not accept. Spec code `INVALID_STATE_TRANSITION` (409 in
 * `api`); `details` name the status and the event, never account data.
 */
export class InvalidTransition extends Schema.TaggedError<InvalidTransition>()("InvalidTransition", {
  code: Schema.tag("INVALID_STATE_TRANSITION"),
  reason: Schema.String,
  details: Schema.Struct({ from: Schema.String, event: Schema.String })
}) {
  static of(from: ExternalAccountStatus, event: ExternalAccountEvent): InvalidTransition {
    return new InvalidTransition({
      reason: `An external account in status ${from} does not accept ${event}`,
      details: { from, event }
    })
  }
}
