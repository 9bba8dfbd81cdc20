import { DateTime, Effect, Option } from "effect"
import { ExternalAccountRepo, type InternalAccount, InternalAccountRepo } from "../accounts/index.js"
import { CustomerErrors, CustomerRepo } from "../customers/index.js"
import { Jobs } from "../events/index.js"
import { Ids, InvalidInput, Outbox, type StoreFailure, UnitOfWork } from "../kernel/index.js"
import { Ledger, SystemAccounts } from "../ledger/index.js"
import type { Platform } from "../platforms/index.js"
import * as IncomingCompletionJob from "./IncomingCompletionJob.js"
import * as IncomingDecision from "./IncomingDecision.js"
import * as IncomingDecisionJob from "./IncomingDecisionJob.js"
import { IncomingDecisionRepo } from "./IncomingDecisionRepo.js"
import * as IncomingTransaction from "./IncomingTransaction.js"
import { InvalidCurrency } from "./PricingErrors.js"
import * as SandboxUmaSenders from "./SandboxUmaSenders.js"
import * as UmaAddressInput from "./UmaAddressInput.js"
import type { InvalidUmaAddress } from "./UmaErrors.js"
import type { Transaction } from "./Transaction.js"
import * as TransactionEvents from "./TransactionEvents.js"
import { TransactionRepo } from "./TransactionRepo.js"
import type { UmaReceiveRequest } from "./UmaReceiveRequest.js"

/** What receiving an UMA payment can be refused for. */
export type ReceiveError =
  | InvalidUmaAddress
  | InvalidInput.InvalidInput
  | CustomerErrors.CustomerNotFound
  | InvalidCurrency
  | Ledger.BalanceLimitExceeded
  | StoreFailure.StoreFailure

/** What receiving needs from its environment. */
export type Requirements =
  | CustomerRepo.CustomerRepo
  | InternalAccountRepo.InternalAccountRepo
  | ExternalAccountRepo.ExternalAccountRepo
  | TransactionRepo
  | IncomingDecisionRepo
  | Ledger.Ledger
  | UnitOfWork.UnitOfWork
  | Outbox.Outbox
  | Jobs.Jobs
  | Ids.Ids

const allOfThem = { limit: 100, after: Option.none() }

/**
 * The customer's primary internal account in `currency`: the oldest `ACTIVE` internal account of that currency that
 * is not an embedded wallet (a wallet moves money only with its owner's signature, so nothing is deposited there
 * unasked). Customers get one such account per supported currency when they are created.
 */
export const primaryAccount = (
  accounts: ReadonlyArray<InternalAccount.InternalAccount>,
  currency: string
): Option.Option<InternalAccount.InternalAccount> =>
  Option.fromNullable(
    accounts
      .filter(
        (account) => account.currency === currency && account.status === "ACTIVE" && account.type !== "EMBEDDED_WALLET"
      )
      .sort((a, b) =>
        DateTime.Order(a.createdAt, b.createdAt) !== 0 ? DateTime.Order(a.createdAt, b.createdAt) : a.id < b.id ? -1 : 1
      )[0]
  )

// The receiver as the request names it: by UMA address or by id, exactly one; a deleted customer is not found.
const receiverOf = (platform: Platform.Platform, request: UmaReceiveRequest) =>
  Effect.gen(function* () {
    const customers = yield* CustomerRepo.CustomerRepo
    const { receiverUmaAddress, customerId } = request
    if ((receiverUmaAddress === undefined) === (customerId === undefined)) {
      return yield* InvalidInput.InvalidInput.onField(
        receiverUmaAddress === undefined ? "receiverUmaAddress" : "customerId",
        "give the receiver as receiverUmaAddress or as customerId, not both"
      )
    }
    const found =
      receiverUmaAddress !== undefined
        ? yield* Effect.flatMap(UmaAddressInput.parse("receiverUmaAddress", receiverUmaAddress), (address) =>
            customers.findByUmaAddress(platform.id, address)
          )
        : yield* customers.findById(platform.id, customerId!)
    const live = Option.filter(found, (stored) => !stored.customer.isDeleted)
    if (Option.isNone(live)) return yield* CustomerErrors.CustomerNotFound.of(customerId ?? receiverUmaAddress ?? "")
    return live.value.customer
  })

/**
 * Where the payment goes (docs/payments.md, "Receiving UMA payments"): the customer's external account marked
 * `defaultUmaDepositAccount`, when it is in the receiving currency (the money passes through to it); otherwise the
 * primary internal account of that currency; with neither, `INVALID_CURRENCY` (`receiver_has_no_account_in_currency`).
 */
const depositOf = (
  platform: Platform.Platform,
  customerId: InternalAccount.InternalAccount["customerId"] & {},
  currency: string
) =>
  Effect.gen(function* () {
    const external = yield* (yield* ExternalAccountRepo.ExternalAccountRepo).list(
      platform.id,
      { owner: "customers", customerId, currency },
      allOfThem
    )
    const preferred = external.data.find((account) => account.defaultUmaDepositAccount)
    if (preferred !== undefined) return { accountId: preferred.id, currency, internal: false } as const
    const internal = yield* (yield* InternalAccountRepo.InternalAccountRepo).list(
      platform.id,
      { owner: "customers", customerId, currency },
      allOfThem
    )
    return yield* Option.match(primaryAccount(internal.data, currency), {
      onNone: () => Effect.fail(InvalidCurrency.of(currency, "receiver_has_no_account_in_currency")),
      onSome: (account) => Effect.succeed({ accountId: account.id, currency, internal: true } as const)
    })
  })

/**
 * The ledger posting of an UMA payment of `amountMinor`: it arrives through the receiving currency's rail clearing
 * account (debited); an internal deposit credits the account, a pass-through to an external account credits rail
 * clearing again as the payout leaves (two entries on one account: the movement is recorded, nothing is held).
 */
export const entriesOf = (
  platformId: Platform.PlatformId,
  deposit: { readonly accountId: string; readonly currency: string; readonly internal: boolean },
  amountMinor: bigint
): ReadonlyArray<Ledger.Entry> => {
  const clearing = SystemAccounts.accountId(platformId, "RAIL_CLEARING", deposit.currency)
  return [
    { accountId: clearing, currency: deposit.currency, amountMinor: -amountMinor },
    { accountId: deposit.internal ? deposit.accountId : clearing, currency: deposit.currency, amountMinor }
  ]
}

/**
 * Receives an UMA payment (`POST /sandbox/uma/receive`), as the sender's sandbox behaviour says
 * (`SandboxUmaSenders`): `COMPLETED` at once (posted, credited), `PENDING` (a pending posting: on its way, not yet
 * available) completed by `IncomingCompletionJob` after `SandboxUmaSenders.pendingDelay`, or `FAILED` with
 * `COMPLIANCE_REJECTED` (nothing posted). The transaction, its posting, its `INCOMING_PAYMENT` webhook and the
 * completion job are written in one unit of work. On a platform with `incomingPaymentApproval`, a payment that would
 * complete at once is held `PENDING` for the platform's decision instead (docs/incoming-approvals.md): its pending
 * credit, its decision and its deadline job are written in one unit of work, with no webhook (the caller sends the
 * decision webhook, `IncomingApprovals.askPlatform`). Answers the transaction.
 */
export const receive = (
  platform: Platform.Platform,
  request: UmaReceiveRequest
): Effect.Effect<Transaction, ReceiveError, Requirements> =>
  Effect.gen(function* () {
    const sender = yield* UmaAddressInput.parse("senderUmaAddress", request.senderUmaAddress)
    const customer = yield* receiverOf(platform, request)
    const deposit = yield* depositOf(platform, customer.id, request.receivingCurrencyCode)
    const behavior = SandboxUmaSenders.behaviorOf(sender)
    const held = behavior === "SUCCESS" && platform.config.incomingPaymentApproval
    const ids = yield* Ids.Ids
    const uuid = yield* ids.uuid
    const now = yield* DateTime.now
    const amountMinor = BigInt(request.receivingCurrencyAmount)
    const transaction = IncomingTransaction.make({
      uuid,
      status: held
        ? "PENDING"
        : behavior === "SUCCESS"
          ? "COMPLETED"
          : behavior === "PENDING_LONG"
            ? "PENDING"
            : "FAILED",
      source: { sourceType: "UMA_ADDRESS", umaAddress: sender },
      deposit,
      customerId: customer.id,
      platformCustomerId: Option.some(customer.platformCustomerId),
      amountMinor,
      description: `UMA payment from ${sender}`,
      failureReason: behavior === "FAIL_COMPLIANCE" ? Option.some("COMPLIANCE_REJECTED") : Option.none(),
      now
    })
    const event = yield* TransactionEvents.withIds(ids)(platform.id, transaction)
    const transactions = yield* TransactionRepo
    const store = yield* UnitOfWork.UnitOfWork
    if (behavior === "FAIL_COMPLIANCE") {
      const outbox = yield* Outbox.Outbox
      yield* store.transaction(
        Effect.zipRight(
          transactions.insert(platform.id, { transaction, postingId: Option.none() }),
          outbox.append(event)
        )
      )
      return transaction
    }
    const ledger = yield* Ledger.Ledger
    const posting: Ledger.Posting = {
      platformId: platform.id,
      idempotencyKey: `uma-receive:${uuid}`,
      status: behavior === "SUCCESS" && !held ? "posted" : "pending",
      description: transaction.description ?? "UMA payment",
      entries: entriesOf(platform.id, deposit, amountMinor)
    }
    const post = transactions.insertPosted(posting, transaction, event)
    // A currency the platform took on after it was set up may lack its system accounts: they are opened
    // (idempotently) and the posting tried once more.
    const posted = post.pipe(
      Effect.catchTag("InvalidPosting", () =>
        ledger.openAccounts(SystemAccounts.accountsFor(platform.id, [deposit.currency])).pipe(Effect.zipRight(post))
      ),
      Effect.catchTags({
        InvalidPosting: Effect.die,
        IdempotencyKeyReused: Effect.die,
        // Rail clearing, the only account debited, is unguarded.
        InsufficientFunds: Effect.die
      })
    )
    const jobs = yield* Jobs.Jobs
    if (held) {
      const decision = IncomingDecision.awaiting(transaction.id, now)
      const decisions = yield* IncomingDecisionRepo
      // Posted and stored without an outbox event: the held payment's webhook is the decision request itself.
      const post = ledger.post(posting).pipe(
        Effect.catchTag("InvalidPosting", () =>
          ledger
            .openAccounts(SystemAccounts.accountsFor(platform.id, [deposit.currency]))
            .pipe(Effect.zipRight(ledger.post(posting)))
        ),
        Effect.catchTags({
          InvalidPosting: Effect.die,
          IdempotencyKeyReused: Effect.die,
          InsufficientFunds: Effect.die
        })
      )
      yield* store.transaction(
        Effect.gen(function* () {
          const result = yield* post
          yield* transactions.insert(platform.id, { transaction, postingId: Option.some(result.postingId) })
          yield* decisions.insert(platform.id, decision)
          yield* jobs.enqueue(IncomingDecisionJob.newJob(platform.id, transaction.id, decision.deadlineAt))
        })
      )
      return transaction
    }
    if (behavior === "SUCCESS") {
      yield* posted
      return transaction
    }
    yield* store.transaction(
      Effect.zipRight(
        posted,
        jobs.enqueue(
          IncomingCompletionJob.newJob(
            platform.id,
            transaction.id,
            DateTime.addDuration(now, SandboxUmaSenders.pendingDelay)
          )
        )
      )
    )
    return transaction
  })
