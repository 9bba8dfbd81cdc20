import { Clock, Context, DateTime, Effect, Layer, Option, Schema } from "effect"
import { InternalAccountNotFound } from "./AccountErrors.js"
import { type InternalAccountId, InternalAccountView } from "./InternalAccount.js"
import { InternalAccountRepo } from "./InternalAccountRepo.js"
import { InternalAccounts, toView } from "./InternalAccounts.js"
import { DomainEvent, Ids, Money, Outbox, ResourceId, Store, type StoreFailure } from "../kernel/index.js"
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

export const layer = Layer.effect(
  SandboxFunding,
  Effect.gen(function* () {
    const repo = yield* InternalAccountRepo
    const accounts = yield* InternalAccounts
    const ledger = yield* Ledger.Ledger
    const outbox = yield* Outbox.Outbox
    const store = yield* Store.Store
    const ids = yield* Ids.Ids
    return {
      fund: (platform, accountId, { amountMinor, idempotencyKey }) =>
        Effect.gen(function* () {
          if (platform.environment !== "SANDBOX") {
            return yield* Effect.fail(PlatformErrors.SandboxOnly.of())
          }
          const found = yield* repo.findById(platform.id, accountId)
          if (Option.isNone(found)) {
            return yield* Effect.fail(
              InternalAccountNotFound.of(accountId)
            )
          }
          const account = found.value
          const key = Option.getOrElse(idempotencyKey, () => "")
          const uuid = yield* ids.uuid
          const now = DateTime.unsafeMake(yield* Clock.currentTimeMillis)
          yield* store.transaction(
            Effect.gen(function* () {
              const result = yield* ledger
                .post({
                  platformId: platform.id,
                  idempotencyKey: `sandbox-fund:${key === "" ? uuid : key}`,
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
              if (!result.applied) return
              const balance = yield* ledger.balance(platform.id, account.id).pipe(Effect.catchTag("InvalidPosting", Effect.die))
              yield* outbox.append(
                new DomainEvent.DomainEvent({
                  id: DomainEvent.EventId.make(ResourceId.format("Webhook", yield* ids.uuid)),
                  platformId: platform.id,
                  type: "INCOMING_PAYMENT",
                  timestamp: now,
                  data: {
                    transactionId: result.postingId,
                    status: "COMPLETED",
                    rail: "SANDBOX",
                    internalAccountId: account.id,
                    ...(account.customerId === undefined ? {} : { customerId: account.customerId }),
                    receivedAmount: { amount: Money.toWire(amountMinor), currency: account.currency },
                    account: encodeView(toView(account, balance))
                  }
                })
              )
            })
          )
          return yield* accounts.get(platform, account.id).pipe(Effect.catchTag("InternalAccountNotFound", Effect.die))
        })
    }
  })
)
