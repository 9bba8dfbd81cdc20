import { Clock, Context, DateTime, Effect, Layer, Option, Schema } from "effect"
import { DomainEvent, EventId } from "./DomainEvent.js"
import { InternalAccountNotFound, SandboxOnly, type StoreFailure } from "./Errors.js"
import { Ids } from "./Ids.js"
import { type InternalAccountId, InternalAccountView } from "./InternalAccount.js"
import { InternalAccountRepo } from "./InternalAccountRepo.js"
import { InternalAccounts, toView } from "./InternalAccounts.js"
import * as Ledger from "./Ledger.js"
import * as Money from "./Money.js"
import { Outbox } from "./Outbox.js"
import type { Platform } from "./Platform.js"
import * as ResourceId from "./ResourceId.js"
import { Store } from "./Store.js"
import * as SystemAccounts from "./SystemAccounts.js"

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
      platform: Platform,
      accountId: InternalAccountId,
      input: { readonly amountMinor: bigint; readonly idempotencyKey: Option.Option<string> }
    ) => Effect.Effect<
      InternalAccountView,
      InternalAccountNotFound | SandboxOnly | Ledger.IdempotencyKeyReused | StoreFailure
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
    const outbox = yield* Outbox
    const store = yield* Store
    const ids = yield* Ids
    return {
      fund: (platform, accountId, { amountMinor, idempotencyKey }) =>
        Effect.gen(function* () {
          if (platform.environment !== "SANDBOX") {
            return yield* Effect.fail(new SandboxOnly({ code: "FORBIDDEN", reason: "Only sandbox platforms can be funded this way" }))
          }
          const found = yield* repo.findById(platform.id, accountId)
          if (Option.isNone(found)) {
            return yield* Effect.fail(
              new InternalAccountNotFound({ code: "NOT_FOUND", reason: "Internal account not found", details: { accountId } })
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
                new DomainEvent({
                  id: EventId.make(ResourceId.format("Webhook", yield* ids.uuid)),
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
