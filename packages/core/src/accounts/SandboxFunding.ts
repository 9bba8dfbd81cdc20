import { Context, Effect, Layer, Option, Schema } from "effect"
import type { AccountEventType } from "./AccountEvents.js"
import { InternalAccountNotFound } from "./AccountErrors.js"
import type { InternalAccount, InternalAccountId } from "./InternalAccount.js"
import { InternalAccountView } from "./InternalAccount.js"
import { InternalAccountRepo } from "./InternalAccountRepo.js"
import { toView } from "./InternalAccounts.js"
import { DomainEvent, Ids, Money, Outbox, UnitOfWork, type StoreFailure } from "../kernel/index.js"
import { Ledger, SystemAccounts } from "../ledger/index.js"
import { type Platform, PlatformErrors } from "../platforms/index.js"

/** Puts the first money in: sandbox platforms credit internal accounts through the sandbox rail. */
export class SandboxFunding extends Context.Tag("@payrail/core/SandboxFunding")<
  SandboxFunding,
  {
    /**
     * Credits the account with `amountMinor`, balanced by a debit of the platform's rail clearing account for the
     * currency, and records `INCOMING_PAYMENT` in the same unit of work. With an idempotency key, a replay applies
     * nothing and answers the account as it is; the same key with another amount fails.
     */
    readonly fund: (
      platform: Platform.Platform,
      accountId: InternalAccountId,
      input: { readonly amountMinor: bigint; readonly idempotencyKey: Option.Option<string> }
    ) => Effect.Effect<
      InternalAccountView,
      InternalAccountNotFound | PlatformErrors.SandboxOnly | Ledger.IdempotencyKeyReused | StoreFailure.StoreFailure
    >
  }
>() {}

const encodeView = Schema.encodeSync(InternalAccountView)

const incomingPaymentType: AccountEventType = "INCOMING_PAYMENT"

/** The `INCOMING_PAYMENT` event of a funding: the posting, the amount and the credited account as it now is. */
const incomingPayment = (
  platform: Platform.Platform,
  account: InternalAccount,
  amountMinor: bigint,
  postingId: Ledger.PostingId,
  view: InternalAccountView
) =>
  DomainEvent.make(platform.id, incomingPaymentType, {
    transactionId: postingId,
    status: "COMPLETED",
    rail: "SANDBOX",
    internalAccountId: account.id,
    ...(account.customerId === undefined ? {} : { customerId: account.customerId }),
    receivedAmount: { amount: Money.toWire(amountMinor), currency: account.currency },
    account: encodeView(view)
  })

export const layer = Layer.effect(
  SandboxFunding,
  Effect.gen(function* () {
    const repo = yield* InternalAccountRepo
    const ledger = yield* Ledger.Ledger
    const outbox = yield* Outbox.Outbox
    const store = yield* UnitOfWork.UnitOfWork
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
        return yield* store.transaction(
          Effect.gen(function* () {
            const result = yield* ledger
              .post({
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
              })
              .pipe(Effect.catchTags({ InsufficientFunds: Effect.die, InvalidPosting: Effect.die }))
            // The funded account is guarded, so the posting answers its balance: no second read under its lock.
            const balance = yield* Option.match(Ledger.balanceAfter(result, account.id), {
              onNone: () => Effect.dieMessage(`ledger.post answered no balance of ${account.id}`),
              onSome: Effect.succeed
            })
            const view = toView(account, balance)
            // A replay applied nothing, so it records nothing; it answers with the balance as it is now.
            if (result.applied) {
              const event = incomingPayment(platform, account, amountMinor, result.postingId, view)
              yield* outbox.append(yield* Effect.provideService(event, Ids.Ids, ids))
            }
            return view
          })
        )
      })
    }
  })
)
