import { Context, DateTime, Effect, Layer, Option } from "effect"
import { AccountErrors, type InternalAccount, InternalAccountRepo, InternalAccounts } from "../accounts/index.js"
import { type Customer, CustomerRepo } from "../customers/index.js"
import { Ids, type StoreFailure } from "../kernel/index.js"
import { Ledger, SystemAccounts } from "../ledger/index.js"
import { type Platform, PlatformErrors } from "../platforms/index.js"
import * as IncomingTransaction from "./IncomingTransaction.js"
import * as TransactionEvents from "./TransactionEvents.js"
import { TransactionRepo } from "./TransactionRepo.js"

/**
 * Puts the first money in: sandbox platforms credit internal accounts through the sandbox rail. Each funding is an
 * `INCOMING` transaction (docs/payments.md, "Sandbox funding"): `COMPLETED`, direction `CREDIT`, source
 * `REALTIME_FUNDING {currency}` (money pushed in from outside, as a payer's transfer would be), destination the
 * funded account, listed by `GET /transactions` and announced by `INCOMING_PAYMENT` with the whole transaction.
 */
export class SandboxFunding extends Context.Tag("@payrail/core/SandboxFunding")<
  SandboxFunding,
  {
    /**
     * Credits the account with `amountMinor`, balanced by a debit of the platform's rail clearing account for the
     * currency, and records its transaction and `INCOMING_PAYMENT` in the same atomic step (`TransactionRepo
     * .insertPosted`). With an idempotency key, a replay applies nothing, records no second transaction and answers
     * the account as it is; the same key with another amount fails. A funding that would take the account's balance
     * past `Ledger.balanceMinorMax` fails with `BalanceLimitExceeded` and leaves nothing.
     */
    readonly fund: (
      platform: Platform.Platform,
      accountId: InternalAccount.InternalAccountId,
      input: { readonly amountMinor: bigint; readonly idempotencyKey: Option.Option<string> }
    ) => Effect.Effect<
      InternalAccount.InternalAccountView,
      | AccountErrors.InternalAccountNotFound
      | PlatformErrors.SandboxOnly
      | Ledger.IdempotencyKeyReused
      | Ledger.BalanceLimitExceeded
      | StoreFailure.StoreFailure
    >
  }
>() {}

export const layer = Layer.effect(
  SandboxFunding,
  Effect.gen(function* () {
    const repo = yield* InternalAccountRepo.InternalAccountRepo
    const customers = yield* CustomerRepo.CustomerRepo
    const transactions = yield* TransactionRepo
    const ledger = yield* Ledger.Ledger
    const ids = yield* Ids.Ids
    const event = TransactionEvents.withIds(ids)

    // The reference's `platformCustomerId` of the account's owner (none for the platform's own accounts).
    const platformCustomerIdOf = (platform: Platform.Platform, customerId: Customer.CustomerId | undefined) =>
      customerId === undefined
        ? Effect.succeed(Option.none<string>())
        : Effect.map(customers.findById(platform.id, customerId), (found) =>
            Option.map(found, (stored) => stored.customer.platformCustomerId)
          )

    return {
      fund: Effect.fn("SandboxFunding.fund")(function* (
        platform: Platform.Platform,
        accountId: InternalAccount.InternalAccountId,
        input: { readonly amountMinor: bigint; readonly idempotencyKey: Option.Option<string> }
      ) {
        if (platform.environment !== "SANDBOX") return yield* PlatformErrors.SandboxOnly.of()
        const found = yield* repo.findById(platform.id, accountId)
        if (Option.isNone(found)) return yield* AccountErrors.InternalAccountNotFound.of(accountId)
        const account = found.value
        const { amountMinor } = input
        const key = Option.isSome(input.idempotencyKey) ? input.idempotencyKey.value : yield* ids.uuid
        const transaction = IncomingTransaction.make({
          uuid: yield* ids.uuid,
          status: "COMPLETED",
          source: { sourceType: "REALTIME_FUNDING", currency: account.currency },
          deposit: { accountId: account.id, currency: account.currency },
          customerId: account.customerId ?? platform.id,
          platformCustomerId: yield* platformCustomerIdOf(platform, account.customerId),
          amountMinor,
          description: "Sandbox funding",
          failureReason: Option.none(),
          now: yield* DateTime.now
        })
        // One statement posts, inserts the transaction and records its event, unless it is a replay: no trip back
        // here while the account's row is locked.
        const post = transactions.insertPosted(
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
          transaction,
          yield* event(platform.id, transaction)
        )
        // A currency the platform took on after it was set up (PATCH /config) may lack its rail clearing account: the
        // system accounts of the currency are opened (idempotently) and the posting tried once more.
        const result = yield* post.pipe(
          Effect.catchTag("InvalidPosting", () =>
            ledger.openAccounts(SystemAccounts.accountsFor(platform.id, [account.currency])).pipe(Effect.zipRight(post))
          ),
          Effect.catchTags({ InsufficientFunds: Effect.die, InvalidPosting: Effect.die })
        )
        // The funded account is guarded, so the posting answers its balance (now, for a replay).
        const balance = yield* Option.match(Ledger.balanceAfter(result, account.id), {
          onNone: () => Effect.dieMessage(`ledger.post answered no balance of ${account.id}`),
          onSome: Effect.succeed
        })
        return InternalAccounts.toView(account, balance)
      })
    }
  })
)
