import { Context, Effect, Layer, Option, Schema } from "effect"
import type { AccountEventType } from "./AccountEvents.js"
import { InternalAccountNotFound } from "./AccountErrors.js"
import type { InternalAccount, InternalAccountId } from "./InternalAccount.js"
import { InternalAccountView } from "./InternalAccount.js"
import { InternalAccountRepo } from "./InternalAccountRepo.js"
import { toView } from "./InternalAccounts.js"
import { DomainEvent, Ids, Money, type StoreFailure } from "../kernel/index.js"
import { Ledger, SystemAccounts } from "../ledger/index.js"
import { type Platform, PlatformErrors } from "../platforms/index.js"

/** Puts the first money in: sandbox platforms credit internal accounts through the sandbox rail. */
export class SandboxFunding extends Context.Tag("@payrail/core/SandboxFunding")<
  SandboxFunding,
  {
    /**
     * Credits the account with `amountMinor`, balanced by a debit of the platform's rail clearing account for the
     * currency, and records `INCOMING_PAYMENT` in the same atomic step. With an idempotency key, a replay applies
     * nothing and answers the account as it is; the same key with another amount fails. A funding that would take
     * the account's balance past `Ledger.balanceMinorMax` fails with `BalanceLimitExceeded` and applies nothing.
     */
    readonly fund: (
      platform: Platform.Platform,
      accountId: InternalAccountId,
      input: { readonly amountMinor: bigint; readonly idempotencyKey: Option.Option<string> }
    ) => Effect.Effect<
      InternalAccountView,
      | InternalAccountNotFound
      | PlatformErrors.SandboxOnly
      | Ledger.IdempotencyKeyReused
      | Ledger.BalanceLimitExceeded
      | StoreFailure.StoreFailure
    >
  }
>() {}

const encodeView = Schema.encodeSync(InternalAccountView)

const incomingPaymentType: AccountEventType = "INCOMING_PAYMENT"

/**
 * The `INCOMING_PAYMENT` event of a funding, before the posting: the ledger writes the posting's id at
 * `transactionId` and the account's balances after the posting into `account` (`incomingPaymentFigures`).
 */
const incomingPayment = (platform: Platform.Platform, account: InternalAccount, amountMinor: bigint) =>
  DomainEvent.make(platform.id, incomingPaymentType, {
    status: "COMPLETED",
    rail: "SANDBOX",
    internalAccountId: account.id,
    ...(account.customerId === undefined ? {} : { customerId: account.customerId }),
    receivedAmount: { amount: Money.toWire(amountMinor), currency: account.currency },
    account: encodeView(toView(account, Ledger.zeroBalance(account.id, account.currency)))
  })

/** Where the funding's posting completes its event. */
const incomingPaymentFigures = (account: InternalAccount) => ({
  postingIdAt: [["transactionId"]],
  balancesAt: [
    {
      accountId: account.id,
      availableAt: ["account", "balance", "amount"],
      postedAt: ["account", "totalBalance", "amount"]
    }
  ]
})

export const layer = Layer.effect(
  SandboxFunding,
  Effect.gen(function* () {
    const repo = yield* InternalAccountRepo
    const ledger = yield* Ledger.Ledger
    const ids = yield* Ids.Ids
    return {
      fund: Effect.fn("SandboxFunding.fund")(function* (
        platform: Platform.Platform,
        accountId: InternalAccountId,
        input: { readonly amountMinor: bigint; readonly idempotencyKey: Option.Option<string> }
      ) {
        if (platform.environment !== "SANDBOX") return yield* PlatformErrors.SandboxOnly.of()
        const found = yield* repo.findById(platform.id, accountId)
        if (Option.isNone(found)) return yield* InternalAccountNotFound.of(accountId)
        const account = found.value
        const { amountMinor } = input
        const key = Option.isSome(input.idempotencyKey) ? input.idempotencyKey.value : yield* ids.uuid
        const event = yield* Effect.provideService(incomingPayment(platform, account, amountMinor), Ids.Ids, ids)
        // One statement posts and, unless it is a replay, records the event completed with the posting's id and
        // the account's new balance: no trip back here while the account's row is locked.
        const result = yield* ledger
          .postRecording(
            {
              platformId: platform.id,
              idempotencyKey: `sandbox-fund:${key}`,
              status: "posted",
              description: "Sandbox funding",
              entries: [
                { accountId: account.id, currency: account.currency, amountMinor },
                {
                  accountId: SystemAccounts.accountId(platform.id, "RAIL_CLEARING", account.currency),
                  currency: account.currency,
                  amountMinor: -amountMinor
                }
              ]
            },
            { event, ...incomingPaymentFigures(account) }
          )
          .pipe(Effect.catchTags({ InsufficientFunds: Effect.die, InvalidPosting: Effect.die }))
        // The funded account is guarded, so the posting answers its balance (now, for a replay).
        const balance = yield* Option.match(Ledger.balanceAfter(result, account.id), {
          onNone: () => Effect.dieMessage(`ledger.post answered no balance of ${account.id}`),
          onSome: Effect.succeed
        })
        return toView(account, balance)
      })
    }
  })
)
