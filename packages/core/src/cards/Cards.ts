import { Context, DateTime, Effect, Encoding, Layer, Option, Schema } from "effect"
import { InternalAccountRepo } from "../accounts/index.js"
import { Customer, CustomerErrors, CustomerRepo } from "../customers/index.js"
import { Jobs } from "../events/index.js"
import {
  Ids,
  type InvalidInput,
  Outbox,
  type Page,
  PlatformTime,
  Sha256,
  type StoreFailure,
  UnitOfWork
} from "../kernel/index.js"
import { type Platform, PlatformRepo, SandboxClock } from "../platforms/index.js"
import { KycLinks } from "../verification/index.js"
import { Card, type CardFilter, CardId, type StoredCard } from "./Card.js"
import {
  CardAlreadyClosed,
  CardConflict,
  CardholderKycNotApproved,
  CardNotFound,
  CardNotMutable,
  type FundingSourceIneligible
} from "./CardErrors.js"
import * as CardEvents from "./CardEvents.js"
import { eligibleAccount } from "./CardFunding.js"
import { CardIssuer, type SensitiveDetails } from "./CardIssuer.js"
import * as CardProvisioningJob from "./CardProvisioningJob.js"
import { CardRepo } from "./CardRepo.js"
import type { CreateCardRequest, UpdateCardRequest } from "./CardRequest.js"
import * as CardRequestRules from "./CardRequestRules.js"
import { CardRevealRepo, type CardRevealResponse, pagePath, lifetime as revealLifetime } from "./CardReveal.js"
import * as CardState from "./CardState.js"

/**
 * Issuing and managing cards (docs/cards.md). Every change, its events and its jobs commit in one unit of work.
 */
export class Cards extends Context.Tag("@payrail/core/Cards")<
  Cards,
  {
    /**
     * Issues a card in `PROCESSING` to an `APPROVED` customer, funded by one of its active internal accounts, and
     * enqueues its provisioning (a job that activates or rejects it and sends `CARD.STATUS_CHANGE`).
     */
    readonly create: (
      platform: Platform.Platform,
      request: CreateCardRequest
    ) => Effect.Effect<
      Card,
      | InvalidInput.InvalidInput
      | CustomerErrors.CustomerNotFound
      | CustomerErrors.CustomerDeleted
      | CardholderKycNotApproved
      | FundingSourceIneligible
      | StoreFailure.StoreFailure
    >
    readonly get: (
      platform: Platform.Platform,
      id: CardId
    ) => Effect.Effect<Card, CardNotFound | StoreFailure.StoreFailure>
    readonly list: (
      platform: Platform.Platform,
      filter: CardFilter,
      page: Page.PageRequest
    ) => Effect.Effect<Page.Page<Card>, StoreFailure.StoreFailure>
    /** Freeze, unfreeze, close, change of funding source or spending limit (`PATCH /cards/{id}`). */
    readonly update: (
      platform: Platform.Platform,
      id: CardId,
      request: UpdateCardRequest
    ) => Effect.Effect<
      Card,
      | InvalidInput.InvalidInput
      | CardNotFound
      | CardAlreadyClosed
      | CardNotMutable
      | CardState.InvalidTransition
      | FundingSourceIneligible
      | CardConflict
      | StoreFailure.StoreFailure
    >
    /**
     * A single-use link (valid `CardReveal.lifetime`) to the page showing the card's full details:
     * `<KycLinks.PublicBaseUrl>/cards/reveal/<token>` (`CardReveal.pagePath`). Only the token's hash is stored.
     */
    readonly reveal: (
      platform: Platform.Platform,
      id: CardId
    ) => Effect.Effect<CardRevealResponse, CardNotFound | CardAlreadyClosed | StoreFailure.StoreFailure>
    /**
     * Opens a reveal link: the card and its full details the first time, within its lifetime; `None` for an unknown,
     * used or expired token (the page says only that the link cannot be opened).
     */
    readonly openReveal: (
      token: string
    ) => Effect.Effect<
      Option.Option<{ readonly card: Card; readonly details: SensitiveDetails }>,
      StoreFailure.StoreFailure
    >
  }
>() {}

const decodeCustomerId = Schema.decodeUnknownOption(Customer.CustomerId)

export const layer = Layer.effect(
  Cards,
  Effect.gen(function* () {
    const cards = yield* CardRepo
    const reveals = yield* CardRevealRepo
    const customers = yield* CustomerRepo.CustomerRepo
    const platforms = yield* PlatformRepo.PlatformRepo
    const issuer = yield* CardIssuer
    const jobs = yield* Jobs.Jobs
    const outbox = yield* Outbox.Outbox
    const store = yield* UnitOfWork.UnitOfWork
    const ids = yield* Ids.Ids
    const funding = yield* Effect.context<InternalAccountRepo.InternalAccountRepo>()
    // Read once, where the layer is built, as the hosted verification links read it.
    const base = (yield* KycLinks.PublicBaseUrl).replace(/\/+$/, "")

    const find = (platform: Platform.Platform, id: CardId) =>
      Effect.flatMap(
        cards.findById(platform.id, id),
        Option.match({ onNone: () => Effect.fail(CardNotFound.of(id)), onSome: Effect.succeed })
      )

    const cardEvent = (platform: Platform.Platform, type: CardEvents.CardEventType, card: Card) =>
      Effect.provideService(CardEvents.ofCard(platform.id, type, card), Ids.Ids, ids)

    const eligible = (platform: Platform.Platform, customerId: string, accountId: string, currency?: string) =>
      Effect.provide(eligibleAccount(platform, customerId, accountId, currency), funding)

    const create = Effect.fn("Cards.create")(function* (platform: Platform.Platform, request: CreateCardRequest) {
      const rules = yield* CardRequestRules.create(request)
      const customerId = decodeCustomerId(rules.customerId)
      const found = Option.isNone(customerId) ? Option.none() : yield* customers.findById(platform.id, customerId.value)
      if (Option.isNone(found)) return yield* CustomerErrors.CustomerNotFound.of(rules.customerId)
      if (found.value.customer.isDeleted) return yield* CustomerErrors.CustomerDeleted.of(found.value.customer.id)
      const customer = found.value.customer
      const status = customer.customerType === "INDIVIDUAL" ? customer.kycStatus : customer.kybStatus
      if (status !== "APPROVED") return yield* CardholderKycNotApproved.of(customer.id, status)
      const account = yield* eligible(platform, customer.id, rules.fundingSource)
      const uuid = yield* ids.uuid
      const id = CardId.make(`Card:${uuid}`)
      const secret = Encoding.encodeHex(yield* ids.randomBytes(16))
      const now = yield* DateTime.now
      const issued = yield* issuer.issue({
        platform,
        cardId: id,
        customerId: customer.id,
        platformCustomerId: customer.platformCustomerId,
        currency: account.currency,
        secret,
        issuedAt: now
      })
      const card = new Card({
        id,
        customerId: customer.id,
        platformCustomerId: customer.platformCustomerId,
        status: "PROCESSING",
        ...issued.details,
        form: request.form,
        fundingSource: account.id,
        currency: account.currency,
        ...(rules.maxSpendPerTransaction === undefined ? {} : { maxSpendPerTransaction: rules.maxSpendPerTransaction }),
        platformCardId: uuid,
        createdAt: now,
        updatedAt: now
      })
      const provisioning = issued.provisioning
      const job =
        provisioning._tag === "StayProcessing"
          ? undefined
          : CardProvisioningJob.newJob(
              platform.id,
              id,
              provisioning._tag === "Activate" ? "ACTIVATE" : "REJECT",
              provisioning._tag === "Activate" ? DateTime.addDuration(now, provisioning.delay) : now
            )
      yield* store.transaction(
        Effect.gen(function* () {
          yield* cards.insert({ platformId: platform.id, card, version: 1, issuerSecret: issued.issuerSecret })
          if (job !== undefined) yield* jobs.enqueue(job)
        })
      )
      return card
    })

    const update = Effect.fn("Cards.update")(function* (
      platform: Platform.Platform,
      id: CardId,
      request: UpdateCardRequest
    ) {
      const change = yield* CardRequestRules.update(request)
      const stored = yield* find(platform, id)
      const current = stored.card
      if (current.status === "CLOSED") return yield* CardAlreadyClosed.of(id)
      if (current.status === "PROCESSING") return yield* CardNotMutable.of(id, current.status)
      const event = change.status === undefined ? undefined : CardState.eventFor(current.status, change.status)
      const status = event === undefined ? current.status : yield* CardState.next(current.status, event)
      const fundingChanged = change.fundingSource !== undefined && change.fundingSource !== current.fundingSource
      if (change.fundingSource !== undefined && fundingChanged) {
        yield* eligible(platform, current.customerId, change.fundingSource, current.currency)
      }
      const limit =
        change.maxSpendPerTransaction === undefined ? current.maxSpendPerTransaction : change.maxSpendPerTransaction
      // Asking for what the card already is (its status, funding source and limit) changes nothing: no write, no event.
      if (status === current.status && !fundingChanged && (limit ?? undefined) === current.maxSpendPerTransaction) {
        return current
      }
      const now = yield* DateTime.now
      const { fundingSource: _detached, maxSpendPerTransaction: _limit, ...rest } = current
      const card =
        status === "CLOSED"
          ? new Card({
              ...rest,
              ...(limit == null ? {} : { maxSpendPerTransaction: limit }),
              status,
              stateReason: "CLOSED_BY_PLATFORM",
              updatedAt: now
            })
          : new Card({
              ...rest,
              status,
              fundingSource: change.fundingSource ?? current.fundingSource,
              ...(limit == null ? {} : { maxSpendPerTransaction: limit }),
              updatedAt: now
            })
      const next: StoredCard = { ...stored, card, version: stored.version + 1 }
      yield* store.transaction(
        Effect.gen(function* () {
          if (!(yield* cards.update(next, stored.version))) return yield* CardConflict.of(id)
          if (status !== current.status) {
            yield* outbox.append(yield* cardEvent(platform, "CARD.STATUS_CHANGE", card))
          }
          if (fundingChanged && status !== "CLOSED") {
            yield* outbox.append(yield* cardEvent(platform, "CARD.FUNDING_SOURCE_CHANGE", card))
          }
        })
      )
      return card
    })

    const reveal = Effect.fn("Cards.reveal")(function* (platform: Platform.Platform, id: CardId) {
      const stored = yield* find(platform, id)
      if (stored.card.status === "CLOSED") return yield* CardAlreadyClosed.of(id)
      const token = Ids.base64url(yield* ids.randomBytes(32))
      const now = yield* DateTime.now
      const expiresAt = DateTime.addDuration(now, revealLifetime)
      yield* reveals.insert({
        tokenHash: yield* Sha256.hex(token),
        platformId: platform.id,
        cardId: id,
        createdAt: now,
        expiresAt
      })
      yield* Effect.logDebug("card reveal link issued").pipe(
        Effect.annotateLogs({ cardId: id, platformId: platform.id })
      )
      return { panEmbedUrl: `${base}${pagePath}/${token}`, expiresAt }
    })

    const openReveal = Effect.fn("Cards.openReveal")(function* (token: string) {
      const tokenHash = yield* Sha256.hex(token)
      const found = yield* reveals.find(tokenHash)
      if (Option.isNone(found)) return Option.none()
      const platform = yield* platforms.findById(found.value.platformId)
      if (Option.isNone(platform)) return Option.none()
      const now = yield* PlatformTime.within(SandboxClock.offsetOf(platform.value))(DateTime.now)
      const consumed = yield* store.transaction(reveals.consume(tokenHash, now))
      if (Option.isNone(consumed)) return Option.none()
      const stored = yield* cards.findById(platform.value.id, consumed.value.cardId)
      if (Option.isNone(stored) || stored.value.card.status === "CLOSED") return Option.none()
      const details = yield* issuer.sensitiveDetails(stored.value)
      yield* Effect.logDebug("card details revealed").pipe(
        Effect.annotateLogs({ cardId: stored.value.card.id, platformId: platform.value.id })
      )
      return Option.some({ card: stored.value.card, details })
    })

    return Cards.of({
      create,
      get: Effect.fn("Cards.get")(function* (platform, id) {
        return (yield* find(platform, id)).card
      }),
      list: (platform, filter, page) => cards.list(platform.id, filter, page),
      update,
      reveal,
      openReveal
    })
  })
)
