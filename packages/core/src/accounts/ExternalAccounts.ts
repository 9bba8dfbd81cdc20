import { Context, DateTime, Duration, Effect, Layer, Option, Schema } from "effect"
import type { AccountEventType } from "./AccountEvents.js"
import * as AccountTypeCurrency from "./AccountTypeCurrency.js"
import { ExternalAccountNotFound, OwnershipChallengeUnavailable } from "./AccountErrors.js"
import {
  ExternalAccount,
  type ExternalAccountId,
  ExternalAccountId as ExternalAccountIdSchema
} from "./ExternalAccount.js"
import { type ExternalAccountExists, type ExternalAccountFilter, ExternalAccountRepo } from "./ExternalAccountRepo.js"
import type {
  CreateExternalAccountRequest,
  OwnershipChallenge,
  OwnershipVerificationRequest
} from "./ExternalAccountRequest.js"
import * as ExternalAccountStatus from "./ExternalAccountStatus.js"
import { type InvalidBankAccount, NameVerificationProvider } from "./NameVerificationProvider.js"
import { OwnershipVerifier } from "./OwnershipVerifier.js"
import { type Customer, CustomerErrors, CustomerRepo } from "../customers/index.js"
import {
  DomainEvent,
  FieldError,
  Ids,
  InvalidInput,
  Outbox,
  type Page,
  ResourceId,
  UnitOfWork,
  type StoreFailure
} from "../kernel/index.js"
import { ExternalAccountInfo } from "@payrail/account-formats"
import type { Platform } from "../platforms/index.js"

/** How long an ownership challenge can be answered. */
export const challengeLifetime = Duration.minutes(15)

type CreateError =
  | CustomerErrors.CustomerNotFound
  | InvalidInput.InvalidInput
  | InvalidBankAccount
  | ExternalAccountExists
  | StoreFailure.StoreFailure
type ChallengeError =
  | ExternalAccountNotFound
  | OwnershipChallengeUnavailable
  | ExternalAccountStatus.InvalidTransition
  | StoreFailure.StoreFailure

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
      platform: Platform.Platform,
      owner: Option.Option<Customer.CustomerId>,
      request: Omit<CreateExternalAccountRequest, "customerId">
    ) => Effect.Effect<ExternalAccount, CreateError>
    readonly get: (
      platform: Platform.Platform,
      id: ExternalAccountId
    ) => Effect.Effect<ExternalAccount, ExternalAccountNotFound | StoreFailure.StoreFailure>
    readonly list: (
      platform: Platform.Platform,
      filter: ExternalAccountFilter,
      page: Page.PageRequest
    ) => Effect.Effect<Page.Page<ExternalAccount>, StoreFailure.StoreFailure>
    readonly delete: (
      platform: Platform.Platform,
      id: ExternalAccountId
    ) => Effect.Effect<void, ExternalAccountNotFound | StoreFailure.StoreFailure>
    /** Starts (or restarts) an ownership challenge of a first-party self-custody wallet awaiting verification. */
    readonly startOwnershipChallenge: (
      platform: Platform.Platform,
      id: ExternalAccountId
    ) => Effect.Effect<OwnershipChallenge, ChallengeError>
    /**
     * Answers the open challenge: a valid signature makes the account `ACTIVE`, an invalid one `UNVERIFIED` (a new
     * challenge must be started to retry). Records `EXTERNAL_ACCOUNT.STATUS_UPDATED`.
     */
    readonly verifyOwnership: (
      platform: Platform.Platform,
      id: ExternalAccountId,
      request: OwnershipVerificationRequest
    ) => Effect.Effect<ExternalAccount, ChallengeError>
  }
>() {}

const encodeAccount = Schema.encodeSync(ExternalAccount)

const notFound = (id: string) => ExternalAccountNotFound.of(id)

/** The message a wallet signs to prove control of the account, for the challenge expiring at `expiresAt`. */
export const messageToSign = (accountId: string, expiresAt: DateTime.Utc): string =>
  `Payrail ownership verification\naccount: ${accountId}\nvalid until: ${DateTime.formatIso(expiresAt)}`

export const layer = Layer.effect(
  ExternalAccounts,
  Effect.gen(function* () {
    const repo = yield* ExternalAccountRepo
    const customers = yield* CustomerRepo.CustomerRepo
    const names = yield* NameVerificationProvider
    const ownership = yield* OwnershipVerifier
    const outbox = yield* Outbox.Outbox
    const store = yield* UnitOfWork.UnitOfWork
    const ids = yield* Ids.Ids
    const now = DateTime.now

    const record = (platform: Platform.Platform, type: AccountEventType, account: ExternalAccount) =>
      DomainEvent.make(platform.id, type, encodeAccount(account)).pipe(
        Effect.provideService(Ids.Ids, ids),
        Effect.flatMap(outbox.append)
      )

    const find = (platform: Platform.Platform, id: ExternalAccountId) =>
      Effect.flatMap(
        repo.findById(platform.id, id),
        Option.match({ onNone: () => Effect.fail(notFound(id)), onSome: Effect.succeed })
      )

    const challengeable = (account: ExternalAccount) =>
      account.ownershipType === "FIRST_PARTY" &&
      ExternalAccountInfo.isSelfCustodyWallet(account.accountInfo) &&
      ExternalAccountStatus.awaitsOwnershipVerification(account.status)

    // Applies a state-machine event with a compare-and-set; a concurrent change makes it fail rather than overwrite.
    const apply = (
      platform: Platform.Platform,
      account: ExternalAccount,
      event: ExternalAccountStatus.ExternalAccountEvent,
      challengeExpiresAt: Option.Option<DateTime.Utc>
    ) =>
      Effect.gen(function* () {
        const status = yield* ExternalAccountStatus.transition(account.status, event)
        const { ownershipChallengeExpiresAt: _previous, ...rest } = account
        const next = new ExternalAccount({
          ...rest,
          status,
          ...Option.match(challengeExpiresAt, {
            onNone: () => ({}),
            onSome: (at) => ({ ownershipChallengeExpiresAt: at })
          }),
          updatedAt: yield* now
        })
        const applied = yield* repo.transition(platform.id, account.id, account.status, next)
        if (!applied) return yield* Effect.fail(OwnershipChallengeUnavailable.of("account_changed_meanwhile"))
        if (status !== account.status) yield* record(platform, "EXTERNAL_ACCOUNT.STATUS_UPDATED", next)
        return next
      })

    return {
      create: (platform, owner, request) =>
        Effect.withSpan(
          Effect.gen(function* () {
            if (Option.isSome(owner) && Option.isNone(yield* customers.findById(platform.id, owner.value))) {
              return yield* Effect.fail(CustomerErrors.CustomerNotFound.of(owner.value))
            }
            const problems = [
              ...Option.toArray(AccountTypeCurrency.currencyError(request.accountInfo.accountType, request.currency)),
              ...(Option.isNone(owner) && request.defaultUmaDepositAccount === true
                ? [
                    new FieldError.FieldError({
                      field: "defaultUmaDepositAccount",
                      message: "applies to customer accounts only"
                    })
                  ]
                : [])
            ]
            if (problems.length > 0) return yield* Effect.fail(InvalidInput.InvalidInput.withErrors(problems))
            const status = yield* ExternalAccountStatus.initialStatus({
              accountInfo: request.accountInfo,
              ownershipType: request.ownershipType,
              subjectToCounterpartyRules: platform.config.subjectToCounterpartyRules
            })
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
          "ExternalAccounts.create"
        ),

      get: find,

      list: (platform, filter, page) => Effect.withSpan(repo.list(platform.id, filter, page), "ExternalAccounts.list"),

      delete: (platform, id) =>
        Effect.withSpan(
          store.transaction(
            Effect.gen(function* () {
              const account = yield* find(platform, id)
              if (!(yield* repo.delete(platform.id, id))) return yield* Effect.fail(notFound(id))
              yield* record(platform, "EXTERNAL_ACCOUNT.DELETED", account)
            })
          ),
          "ExternalAccounts.delete"
        ),

      startOwnershipChallenge: (platform, id) =>
        Effect.withSpan(
          store.transaction(
            Effect.gen(function* () {
              const account = yield* find(platform, id)
              if (!challengeable(account)) {
                return yield* Effect.fail(OwnershipChallengeUnavailable.of("challenge_requires_self_custody_wallet"))
              }
              const expiresAt = DateTime.addDuration(yield* now, challengeLifetime)
              yield* apply(platform, account, "CHALLENGE_STARTED", Option.some(expiresAt))
              return {
                method: "WALLET_SIGNATURE" as const,
                messageToSign: messageToSign(account.id, expiresAt),
                expiresAt
              }
            })
          ),
          "ExternalAccounts.startOwnershipChallenge"
        ),

      verifyOwnership: (platform, id, request) =>
        Effect.withSpan(
          store.transaction(
            Effect.gen(function* () {
              const account = yield* find(platform, id)
              const expiresAt = account.ownershipChallengeExpiresAt
              if (!challengeable(account) || expiresAt === undefined) {
                return yield* Effect.fail(OwnershipChallengeUnavailable.of("challenge_not_started"))
              }
              if (DateTime.greaterThan(yield* now, expiresAt)) {
                return yield* Effect.fail(OwnershipChallengeUnavailable.of("challenge_expired"))
              }
              const message = messageToSign(account.id, expiresAt)
              const valid = yield* ownership.verify({ account, messageToSign: message, signature: request.signature })
              // Either way the challenge is used up: a failed attempt needs a new challenge.
              const event = valid ? "OWNERSHIP_VERIFICATION_SUCCEEDED" : "OWNERSHIP_VERIFICATION_FAILED"
              return yield* apply(platform, account, event, Option.none())
            })
          ),
          "ExternalAccounts.verifyOwnership"
        )
    }
  })
)
