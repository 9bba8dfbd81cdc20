import { Context, Data, DateTime, Effect, Layer, Option, Schedule, Schema } from "effect"
import { BusinessCustomer, Customer, CustomerId, IndividualCustomer } from "./Customer.js"
import type { CustomerFilter } from "./CustomerRepo.js"
import { CustomerRepo, type StoredCustomer } from "./CustomerRepo.js"
import type { CreateCustomerRequest, UpdateCustomerRequest } from "./CustomerRequest.js"
import {
  CustomerDeleted,
  CustomerNotFound,
  type EndUserTermsVersionNotFound,
  type PlatformCustomerIdTaken,
  type UmaAddressTaken
} from "./CustomerErrors.js"
import * as EndUserTerms from "./EndUserTerms.js"
import { type ContactChannel, usesContactVerification } from "./ContactVerification.js"
import { KycProvider } from "./KycProvider.js"
import { DomainEvent, Ids, InvalidInput, Outbox, type Page, UnitOfWork, StoreFailure } from "../kernel/index.js"
import type { CustomerEventType } from "./CustomerEvents.js"
import * as CustomerUpdate from "./CustomerUpdate.js"
import * as CustomerDraft from "./CustomerDraft.js"
import { CustomerProvisioning } from "./CustomerProvisioning.js"
import type { Platform } from "../platforms/index.js"

/** The customer use cases. Every operation is scoped to the given platform. */
export class Customers extends Context.Tag("@payrail/core/Customers")<
  Customers,
  {
    /**
     * Creates a customer with the verification status the KYC provider assigns, opens its internal accounts
     * (an embedded wallet on platforms with the stablecoin) and records `CUSTOMER.CREATED` (plus `CUSTOMER.KYC_*`
     * when the status resolved at creation), all in one unit of work. An `endUserTermsConsent` is stored as given
     * once its `termsVersion` is the current End User Terms version (`EndUserTerms.Current`); any other version is
     * `EndUserTermsVersionNotFound` and nothing is created. A `platformCustomerId` or UMA address another live
     * customer of the platform holds is `PlatformCustomerIdTaken` or `UmaAddressTaken` (the store decides, so of
     * concurrent creations with one value exactly one succeeds).
     */
    readonly create: (
      platform: Platform.Platform,
      request: CreateCustomerRequest,
      options?: CreateOptions
    ) => Effect.Effect<
      Customer,
      | PlatformCustomerIdTaken
      | UmaAddressTaken
      | EndUserTermsVersionNotFound
      | InvalidInput.InvalidInput
      | StoreFailure.StoreFailure
    >
    /**
     * What `create` does before it stores anything (`CustomerDraft.make`): the date rules, the end-user terms
     * version, the provider's initial verification, the record and its events. Stores nothing.
     */
    readonly prepare: (
      platform: Platform.Platform,
      request: CreateCustomerRequest,
      options?: CreateOptions
    ) => Effect.Effect<CustomerDraft.CustomerDraft, EndUserTermsVersionNotFound | InvalidInput.InvalidInput>
    /**
     * Stores prepared customers as `create` stores one, in one unit of work (joining the caller's) at a constant
     * number of statements: every record (`CustomerRepo.insertMany`), their internal accounts
     * (`CustomerProvisioning.provisionMany`) and all their events. All or nothing: a `platformCustomerId` already
     * taken (or repeated among the drafts) fails `PlatformCustomerIdTaken` (an UMA address, `UmaAddressTaken`) and
     * stores none of them.
     */
    readonly createMany: (
      platform: Platform.Platform,
      drafts: ReadonlyArray<CustomerDraft.CustomerDraft>
    ) => Effect.Effect<void, PlatformCustomerIdTaken | UmaAddressTaken | StoreFailure.StoreFailure>
    readonly get: (
      platform: Platform.Platform,
      id: CustomerId
    ) => Effect.Effect<Customer, CustomerNotFound | StoreFailure.StoreFailure>
    readonly list: (
      platform: Platform.Platform,
      filter: CustomerFilter,
      page: Page.PageRequest
    ) => Effect.Effect<Page.Page<Customer>, StoreFailure.StoreFailure>
    /**
     * Applies the given fields, leaving the others and the verification status as they are, and records
     * `CUSTOMER.UPDATED` with it. Concurrent updates never lose each other's fields: each applies to the latest
     * version. `customerType` must match the customer's. A new `endUserTermsConsent` replaces the stored one under
     * the same version rule as `create`. `email` and `phoneNumber` change in separate requests (`InvalidInput`).
     */
    readonly update: (
      platform: Platform.Platform,
      id: CustomerId,
      request: UpdateCustomerRequest
    ) => Effect.Effect<
      Customer,
      | CustomerNotFound
      | CustomerDeleted
      | EndUserTermsVersionNotFound
      | InvalidInput.InvalidInput
      | StoreFailure.StoreFailure
    >
    /**
     * Soft-deletes the customer: it becomes `isDeleted: true` (reads still answer it, lists leave it out unless
     * asked, its `platformCustomerId` is free again) and `CUSTOMER.UPDATED` is recorded with it, in one unit of
     * work; nothing in the ledger or its accounts is removed. Of concurrent deletes exactly one succeeds; the
     * others, and any later one, fail with `CustomerDeleted`.
     */
    readonly delete: (
      platform: Platform.Platform,
      id: CustomerId
    ) => Effect.Effect<Customer, CustomerNotFound | CustomerDeleted | StoreFailure.StoreFailure>
    /**
     * The customer if it exists on the platform and is not deleted: the check every operation that changes a
     * customer or creates resources for it makes first (404 `CustomerNotFound`, 410 `CustomerDeleted`).
     */
    readonly requireLive: (
      platform: Platform.Platform,
      id: CustomerId
    ) => Effect.Effect<Customer, CustomerNotFound | CustomerDeleted | StoreFailure.StoreFailure>
    /**
     * Marks the customer's `channel` contact `VERIFIED` if it is still `destination` (returns `false`, changing
     * nothing, when the contact changed since or the region does not verify contacts) and records
     * `CUSTOMER.UPDATED`; joins the caller's unit of work. Applies to the latest version under concurrent updates.
     */
    readonly markContactVerified: (
      platform: Platform.Platform,
      id: CustomerId,
      channel: ContactChannel,
      destination: string
    ) => Effect.Effect<Option.Option<Customer>, CustomerNotFound | CustomerDeleted | StoreFailure.StoreFailure>
  }
>() {}

/** What `create` takes beside the request: a bulk import brings each customer's UMA address. */
export type CreateOptions = CustomerDraft.CreateOptions

const encodeCustomer = Schema.encodeSync(Customer)

/** A concurrent update won the compare-and-set; the update is tried again on the latest version. */
class VersionConflict extends Data.TaggedError("VersionConflict") {}

// Concurrent updates of one customer serialise on its version: each loser re-reads and re-applies after a short,
// jittered, growing pause, so a burst of patches all apply instead of failing.
const updateRetries = Schedule.exponential("2 millis", 1.5).pipe(
  Schedule.jittered,
  Schedule.intersect(Schedule.recurs(24))
)

export const layer = Layer.effect(
  Customers,
  Effect.gen(function* () {
    const repo = yield* CustomerRepo
    const store = yield* UnitOfWork.UnitOfWork
    const outbox = yield* Outbox.Outbox
    const kyc = yield* KycProvider
    const ids = yield* Ids.Ids
    const provisioning = yield* CustomerProvisioning
    // Read once, where the layer is built, as `Lookups` reads the terms it answers: the two always agree.
    const terms = yield* EndUserTerms.Current

    const checkTermsVersion = (request: CreateCustomerRequest | UpdateCustomerRequest) =>
      EndUserTerms.checkVersion(request.endUserTermsConsent, terms)

    const event = (platform: Platform.Platform, type: CustomerEventType, customer: Customer) =>
      DomainEvent.make(platform.id, type, encodeCustomer(customer)).pipe(Effect.provideService(Ids.Ids, ids))

    const prepare = (platform: Platform.Platform, request: CreateCustomerRequest, options: CreateOptions = {}) =>
      Effect.zipRight(checkTermsVersion(request), CustomerDraft.make(platform, request, options)).pipe(
        Effect.provideService(Ids.Ids, ids),
        Effect.provideService(KycProvider, kyc),
        Effect.withSpan("Customers.prepare")
      )

    const find = (platform: Platform.Platform, id: CustomerId) =>
      Effect.flatMap(
        repo.findById(platform.id, id),
        Option.match({ onNone: () => Effect.fail(CustomerNotFound.of(id)), onSome: Effect.succeed })
      )

    const findLive = (platform: Platform.Platform, id: CustomerId) =>
      Effect.filterOrElse(
        find(platform, id),
        (stored) => !stored.customer.isDeleted,
        () => Effect.fail(CustomerDeleted.of(id))
      )

    // Replaces the stored customer with `change(current)` on its version and records CUSTOMER.UPDATED, in one unit
    // of work; a lost compare-and-set is retried on the latest version (see updateRetries).
    const modify = <E>(
      platform: Platform.Platform,
      id: CustomerId,
      change: (stored: StoredCustomer) => Effect.Effect<Option.Option<StoredCustomer>, E>
    ) =>
      store
        .transaction(
          Effect.gen(function* () {
            const stored = yield* find(platform, id)
            const next = yield* change(stored)
            if (Option.isNone(next)) return Option.none<Customer>()
            const nextStored: StoredCustomer = { ...next.value, version: stored.version + 1 }
            if (!(yield* repo.update(platform.id, nextStored, stored.version))) return yield* new VersionConflict()
            yield* outbox.append(yield* event(platform, "CUSTOMER.UPDATED", nextStored.customer))
            return Option.some(nextStored.customer)
          })
        )
        .pipe(
          Effect.retry({ schedule: updateRetries, while: (error) => error instanceof VersionConflict }),
          Effect.catchIf(
            (error): error is VersionConflict => error instanceof VersionConflict,
            () => Effect.fail(StoreFailure.StoreFailure.of("update customer: too many concurrent updates"))
          )
        )

    // The customer with some record fields replaced, as the class of its type.
    const rebuild = (
      customer: Customer,
      patch: Partial<Pick<Customer, "isDeleted" | "updatedAt" | "contactVerification">>
    ): Customer =>
      customer.customerType === "INDIVIDUAL"
        ? new IndividualCustomer({ ...customer, ...patch })
        : new BusinessCustomer({ ...customer, ...patch })

    // For changes that always apply: the changed customer.
    const applied = <E, R>(change: Effect.Effect<Option.Option<Customer>, E, R>) =>
      Effect.flatMap(
        change,
        Option.match({ onNone: () => Effect.dieMessage("customer change not applied"), onSome: Effect.succeed })
      )

    return {
      create: Effect.fn("Customers.create")(function* (
        platform: Platform.Platform,
        request: CreateCustomerRequest,
        options: CreateOptions = {}
      ) {
        const { customer, identifier, events } = yield* prepare(platform, request, options)
        yield* store.transaction(
          Effect.gen(function* () {
            yield* repo.insert(platform.id, customer, identifier)
            yield* provisioning.provision(platform, customer)
            yield* outbox.appendAll(events)
          })
        )
        return customer
      }),

      prepare,

      createMany: Effect.fn("Customers.createMany")(function* (
        platform: Platform.Platform,
        drafts: ReadonlyArray<CustomerDraft.CustomerDraft>
      ) {
        if (drafts.length === 0) return
        yield* store.transaction(
          Effect.gen(function* () {
            yield* repo.insertMany(platform.id, drafts)
            yield* provisioning.provisionMany(
              platform,
              drafts.map((draft) => draft.customer)
            )
            yield* outbox.appendAll(drafts.flatMap((draft) => draft.events))
          })
        )
      }),

      get: Effect.fn("Customers.get")(function* (platform: Platform.Platform, id: CustomerId) {
        return (yield* find(platform, id)).customer
      }),

      list: Effect.fn("Customers.list")(function* (
        platform: Platform.Platform,
        filter: CustomerFilter,
        page: Page.PageRequest
      ) {
        return yield* repo.list(platform.id, filter, page)
      }),

      update: Effect.fn("Customers.update")(function* (
        platform: Platform.Platform,
        id: CustomerId,
        request: UpdateCustomerRequest
      ) {
        yield* CustomerUpdate.checkOneContact(request)
        yield* CustomerUpdate.checkPastDates(request, CustomerUpdate.today(yield* DateTime.now))
        yield* checkTermsVersion(request)
        return yield* applied(
          modify(platform, id, (stored) =>
            Effect.gen(function* () {
              if (stored.customer.isDeleted) return yield* CustomerDeleted.of(id)
              const customer = yield* CustomerUpdate.apply(stored.customer, request, yield* DateTime.now)
              const identifier =
                request.customerType === "INDIVIDUAL" && request.identifier !== undefined
                  ? Option.some(request.identifier)
                  : stored.identifier
              return Option.some({ ...stored, customer, identifier })
            })
          )
        )
      }),

      delete: Effect.fn("Customers.delete")(function* (platform: Platform.Platform, id: CustomerId) {
        // A concurrent delete that wins the version makes this one re-read the deleted customer and fail: one 200.
        return yield* applied(
          modify(platform, id, (stored) =>
            stored.customer.isDeleted
              ? Effect.fail(CustomerDeleted.of(id))
              : Effect.map(DateTime.now, (updatedAt) =>
                  Option.some({ ...stored, customer: rebuild(stored.customer, { isDeleted: true, updatedAt }) })
                )
          )
        )
      }),

      requireLive: Effect.fn("Customers.requireLive")(function* (platform: Platform.Platform, id: CustomerId) {
        return (yield* findLive(platform, id)).customer
      }),

      markContactVerified: Effect.fn("Customers.markContactVerified")(function* (
        platform: Platform.Platform,
        id: CustomerId,
        channel: ContactChannel,
        destination: string
      ) {
        return yield* modify(platform, id, (stored) =>
          Effect.gen(function* () {
            const current = stored.customer
            if (current.isDeleted) return yield* CustomerDeleted.of(id)
            const contact = channel === "email" ? current.email : current.phoneNumber
            if (contact !== destination || !usesContactVerification(current.region)) return Option.none()
            const contactVerification = { ...current.contactVerification, [channel]: "VERIFIED" as const }
            const updatedAt = yield* DateTime.now
            return Option.some({ ...stored, customer: rebuild(current, { contactVerification, updatedAt }) })
          })
        )
      })
    }
  })
)
