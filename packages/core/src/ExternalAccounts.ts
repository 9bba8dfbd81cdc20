import { Clock, Context, DateTime, Duration, Effect, Either, Layer, Option, Schema } from "effect"
import * as AccountTypeCurrency from "./AccountTypeCurrency.js"
import type { CustomerId } from "./Customer.js"
import { CustomerRepo } from "./CustomerRepo.js"
import { DomainEvent, EventId } from "./DomainEvent.js"
import {
  CustomerNotFound,
  ExternalAccountNotFound,
  OwnershipChallengeUnavailable,
  type StoreFailure
} from "./Errors.js"
import { ExternalAccount, type ExternalAccountId, ExternalAccountId as ExternalAccountIdSchema } from "./ExternalAccount.js"
import * as ExternalAccountInfo from "./ExternalAccountInfo.js"
import { type ExternalAccountExists, type ExternalAccountFilter, ExternalAccountRepo } from "./ExternalAccountRepo.js"
import type { CreateExternalAccountRequest, OwnershipChallenge, OwnershipVerificationRequest } from "./ExternalAccountRequest.js"
import * as ExternalAccountStatus from "./ExternalAccountStatus.js"
import { FieldError } from "./FieldError.js"
import { Ids } from "./Ids.js"
import { InvalidInput } from "./InvalidInput.js"
import { type InvalidBankAccount, NameVerificationProvider } from "./NameVerificationProvider.js"
import { Outbox } from "./Outbox.js"
import { OwnershipVerifier } from "./OwnershipVerifier.js"
import type { Page, PageRequest } from "./Page.js"
import type { Platform } from "./Platform.js"
import * as ResourceId from "./ResourceId.js"
import { Store } from "./Store.js"

/** How long an ownership challenge can be answered. */
export const challengeLifetime = Duration.minutes(15)

type CreateError = CustomerNotFound | InvalidInput | InvalidBankAccount | ExternalAccountExists | StoreFailure
type ChallengeError = ExternalAccountNotFound | OwnershipChallengeUnavailable | ExternalAccountStatus.InvalidTransition | StoreFailure

/** External accounts of customers and of the platform. Every operation is scoped to the given platform. */
export class ExternalAccounts extends Context.Tag("@payrail/core/ExternalAccounts")<
  ExternalAccounts,
  {
    /**
     * Validates and stores an external account: the currency must suit the account type, the initial status follows
     * the counterparty rules, the name is verified with the rail (`INVALID_BANK_ACCOUNT` when it rejects the account)
     * and `EXTERNAL_ACCOUNT.CREATED` is recorded with it. `owner` is the customer, or `None` for the platform.
     */
    readonly create: (
      platform: Platform,
      owner: Option.Option<CustomerId>,
      request: Omit<CreateExternalAccountRequest, "customerId">
    ) => Effect.Effect<ExternalAccount, CreateError>
    readonly get: (platform: Platform, id: ExternalAccountId) => Effect.Effect<ExternalAccount, ExternalAccountNotFound | StoreFailure>
    readonly list: (
      platform: Platform,
      filter: ExternalAccountFilter,
      page: PageRequest
    ) => Effect.Effect<Page<ExternalAccount>, StoreFailure>
    readonly delete: (platform: Platform, id: ExternalAccountId) => Effect.Effect<void, ExternalAccountNotFound | StoreFailure>
    /** Starts (or restarts) an ownership challenge of a first-party self-custody wallet awaiting verification. */
    readonly startOwnershipChallenge: (platform: Platform, id: ExternalAccountId) => Effect.Effect<OwnershipChallenge, ChallengeError>
    /**
     * Answers the open challenge: a valid signature makes the account `ACTIVE`, an invalid one `UNVERIFIED` (a new
     * challenge must be started to retry). Records `EXTERNAL_ACCOUNT.STATUS_UPDATED`.
     */
    readonly verifyOwnership: (
      platform: Platform,
      id: ExternalAccountId,
      request: OwnershipVerificationRequest
    ) => Effect.Effect<ExternalAccount, ChallengeError>
  }
>() {}

const encodeAccount = Schema.encodeSync(ExternalAccount)

const notFound = (id: string) =>
  new ExternalAccountNotFound({ code: "NOT_FOUND", reason: "External account not found", details: { accountId: id } })

/** The message a wallet signs to prove control of the account, for the challenge expiring at `expiresAt`. */
export const messageToSign = (accountId: string, expiresAt: DateTime.Utc): string =>
  `Payrail ownership verification\naccount: ${accountId}\nvalid until: ${DateTime.formatIso(expiresAt)}`

export const layer = Layer.effect(
  ExternalAccounts,
  Effect.gen(function* () {
    const repo = yield* ExternalAccountRepo
    const customers = yield* CustomerRepo
    const names = yield* NameVerificationProvider
    const ownership = yield* OwnershipVerifier
    const outbox = yield* Outbox
    const store = yield* Store
    const ids = yield* Ids
    const now = Effect.map(Clock.currentTimeMillis, (millis) => DateTime.unsafeMake(millis))

    const record = (platform: Platform, type: string, account: ExternalAccount) =>
      Effect.gen(function* () {
        const id = EventId.make(ResourceId.format("Webhook", yield* ids.uuid))
        yield* outbox.append(new DomainEvent({ id, platformId: platform.id, type, timestamp: yield* now, data: encodeAccount(account) }))
      })

    const find = (platform: Platform, id: ExternalAccountId) =>
      Effect.flatMap(repo.findById(platform.id, id), Option.match({ onNone: () => Effect.fail(notFound(id)), onSome: Effect.succeed }))

    const challengeable = (account: ExternalAccount) =>
      account.ownershipType === "FIRST_PARTY" &&
      ExternalAccountInfo.isSelfCustodyWallet(account.accountInfo) &&
      ExternalAccountStatus.awaitsOwnershipVerification(account.status)

    const unavailable = (reason: string) => new OwnershipChallengeUnavailable({ code: "CONFLICT", reason })

    // Applies a state-machine event with a compare-and-set; a concurrent change makes it fail rather than overwrite.
    const apply = (
      platform: Platform,
      account: ExternalAccount,
      event: ExternalAccountStatus.ExternalAccountEvent,
      challengeExpiresAt: Option.Option<DateTime.Utc>
    ) =>
      Effect.gen(function* () {
        const status = yield* Either.match(ExternalAccountStatus.transition(account.status, event), {
          onLeft: Effect.fail,
          onRight: Effect.succeed
        })
        const { ownershipChallengeExpiresAt: _previous, ...rest } = account
        const next = new ExternalAccount({
          ...rest,
          status,
          ...Option.match(challengeExpiresAt, { onNone: () => ({}), onSome: (at) => ({ ownershipChallengeExpiresAt: at }) }),
          updatedAt: yield* now
        })
        const applied = yield* repo.transition(platform.id, account.id, account.status, next)
        if (!applied) return yield* Effect.fail(unavailable("The account changed meanwhile; start a new challenge"))
        if (status !== account.status) yield* record(platform, "EXTERNAL_ACCOUNT.STATUS_UPDATED", next)
        return next
      })

    return {
      create: (platform, owner, request) =>
        Effect.gen(function* () {
          if (Option.isSome(owner) && Option.isNone(yield* customers.findById(platform.id, owner.value))) {
            return yield* Effect.fail(
              new CustomerNotFound({ code: "USER_NOT_FOUND", reason: "Customer not found", details: { customerId: owner.value } })
            )
          }
          const problems = [
            ...Option.toArray(AccountTypeCurrency.currencyError(request.accountInfo.accountType, request.currency)),
            ...(Option.isNone(owner) && request.defaultUmaDepositAccount === true
              ? [new FieldError({ field: "defaultUmaDepositAccount", message: "applies to customer accounts only" })]
              : [])
          ]
          if (problems.length > 0) return yield* Effect.fail(InvalidInput.withErrors(problems))
          const status = yield* Either.match(
            ExternalAccountStatus.initialStatus({
              accountInfo: request.accountInfo,
              ownershipType: request.ownershipType,
              subjectToCounterpartyRules: platform.config.subjectToCounterpartyRules
            }),
            { onLeft: Effect.fail, onRight: Effect.succeed }
          )
          const verification = yield* names.verify({ accountInfo: request.accountInfo })
          const createdAt = yield* now
          const account = new ExternalAccount({
            id: ExternalAccountIdSchema.make(ResourceId.format("ExternalAccount", yield* ids.uuid)),
            ...(Option.isSome(owner) ? { customerId: owner.value } : {}),
            status,
            ...(request.platformAccountId === undefined ? {} : { platformAccountId: request.platformAccountId }),
            ...(request.ownershipType === undefined ? {} : { ownershipType: request.ownershipType }),
            currency: request.currency,
            defaultUmaDepositAccount: request.defaultUmaDepositAccount ?? false,
            ...Option.getOrElse(verification, () => ({})),
            accountInfo: request.accountInfo,
            createdAt,
            updatedAt: createdAt
          })
          yield* store.transaction(
            Effect.gen(function* () {
              yield* repo.insert(platform.id, account, ExternalAccountInfo.uniqueKeyOf(account.accountInfo))
              yield* record(platform, "EXTERNAL_ACCOUNT.CREATED", account)
            })
          )
          return account
        }),

      get: find,

      list: (platform, filter, page) => repo.list(platform.id, filter, page),

      delete: (platform, id) =>
        store.transaction(
          Effect.gen(function* () {
            const account = yield* find(platform, id)
            if (!(yield* repo.delete(platform.id, id))) return yield* Effect.fail(notFound(id))
            yield* record(platform, "EXTERNAL_ACCOUNT.DELETED", account)
          })
        ),

      startOwnershipChallenge: (platform, id) =>
        store.transaction(
          Effect.gen(function* () {
            const account = yield* find(platform, id)
            if (!challengeable(account)) {
              return yield* Effect.fail(unavailable("Only first-party self-custody wallets awaiting verification take a challenge"))
            }
            const expiresAt = DateTime.addDuration(yield* now, challengeLifetime)
            yield* apply(platform, account, "CHALLENGE_STARTED", Option.some(expiresAt))
            return { method: "WALLET_SIGNATURE" as const, messageToSign: messageToSign(account.id, expiresAt), expiresAt }
          })
        ),

      verifyOwnership: (platform, id, request) =>
        store.transaction(
          Effect.gen(function* () {
            const account = yield* find(platform, id)
            const expiresAt = account.ownershipChallengeExpiresAt
            if (!challengeable(account) || expiresAt === undefined) {
              return yield* Effect.fail(unavailable("No ownership challenge is open for this account; start one"))
            }
            if (DateTime.greaterThan(yield* now, expiresAt)) {
              return yield* Effect.fail(unavailable("The challenge has expired; start a new one"))
            }
            const message = messageToSign(account.id, expiresAt)
            const valid = yield* ownership.verify({ account, messageToSign: message, signature: request.signature })
            // Either way the challenge is used up: a failed attempt needs a new challenge.
            const event = valid ? "OWNERSHIP_VERIFICATION_SUCCEEDED" : "OWNERSHIP_VERIFICATION_FAILED"
            return yield* apply(platform, account, event, Option.none())
          })
        )
    }
  })
)
