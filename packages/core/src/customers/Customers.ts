import { Context, Data, DateTime, Effect, Layer, Option, Schedule, Schema } from "effect"
import { BusinessCustomer, Customer, CustomerId, IndividualCustomer } from "./Customer.js"
import type { CustomerFilter } from "./CustomerRepo.js"
import { CustomerRepo, type StoredCustomer } from "./CustomerRepo.js"
import type { CreateCustomerRequest, UpdateCustomerRequest } from "./CustomerRequest.js"
import { CustomerNotFound, type PlatformCustomerIdTaken } from "./CustomerErrors.js"
import { KycProvider } from "./KycProvider.js"
import {
  DomainEvent,
  Ids,
  InvalidInput,
  Outbox,
  type Page,
  ResourceId,
  UnitOfWork,
  StoreFailure
} from "../kernel/index.js"
import { type CustomerEventType, verificationEventType } from "./CustomerEvents.js"
import * as CustomerUpdate from "./CustomerUpdate.js"
import * as UmaAddress from "./UmaAddress.js"
import { CustomerProvisioning } from "./CustomerProvisioning.js"
import type { Platform } from "../platforms/index.js"

/** The customer use cases. Every operation is scoped to the given platform. */
export class Customers extends Context.Tag("@payrail/core/Customers")<
  Customers,
  {
    /**
     * Creates a customer with the verification status the KYC provider assigns, opens its internal accounts
     * (an embedded wallet on platforms with the stablecoin) and records `CUSTOMER.CREATED` (plus `CUSTOMER.KYC_*`
     * when the status resolved at creation), all in one unit of work.
     */
    readonly create: (
      platform: Platform.Platform,
      request: CreateCustomerRequest
    ) => Effect.Effect<Customer, PlatformCustomerIdTaken | InvalidInput.InvalidInput | StoreFailure.StoreFailure>
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
     * version. `customerType` must match the customer's.
     */
    readonly update: (
      platform: Platform.Platform,
      id: CustomerId,
      request: UpdateCustomerRequest
    ) => Effect.Effect<Customer, CustomerNotFound | InvalidInput.InvalidInput | StoreFailure.StoreFailure>
  }
>() {}

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

    const event = (platform: Platform.Platform, type: CustomerEventType, customer: Customer) =>
      DomainEvent.make(platform.id, type, encodeCustomer(customer)).pipe(Effect.provideService(Ids.Ids, ids))

    const find = (platform: Platform.Platform, id: CustomerId) =>
      Effect.flatMap(
        repo.findById(platform.id, id),
        Option.match({ onNone: () => Effect.fail(CustomerNotFound.of(id)), onSome: Effect.succeed })
      )

    const build = (platform: Platform.Platform, request: CreateCustomerRequest, uuid: string, now: DateTime.Utc) =>
      Effect.gen(function* () {
        const verification = yield* kyc.initialVerification({ platform, request })
        const common = {
          id: CustomerId.make(ResourceId.format("Customer", uuid)),
          platformCustomerId: request.platformCustomerId ?? uuid,
          umaAddress: UmaAddress.forCustomer(uuid, platform.config.umaDomain),
          createdAt: now,
          updatedAt: now,
          isDeleted: false
        }
        if (request.customerType === "INDIVIDUAL") {
          const { customerType: _type, platformCustomerId: _pcid, identifier, ...fields } = request
          const kycStatus = verification.customerType === "INDIVIDUAL" ? verification.kycStatus : "UNVERIFIED"
          const customer = new IndividualCustomer({ ...fields, ...common, customerType: "INDIVIDUAL", kycStatus })
          return { customer, identifier: Option.fromNullable(identifier) }
        }
        const { customerType: _type, platformCustomerId: _pcid, ...fields } = request
        const kybStatus = verification.customerType === "BUSINESS" ? verification.kybStatus : "UNVERIFIED"
        const customer = new BusinessCustomer({ ...fields, ...common, customerType: "BUSINESS", kybStatus })
        return { customer, identifier: Option.none<string>() }
      })

    const updateOnce = (platform: Platform.Platform, id: CustomerId, request: UpdateCustomerRequest) =>
      store.transaction(
        Effect.gen(function* () {
          const stored = yield* find(platform, id)
          const next = yield* CustomerUpdate.apply(stored.customer, request, yield* DateTime.now)
          const identifier =
            request.customerType === "INDIVIDUAL" && request.identifier !== undefined
              ? Option.some(request.identifier)
              : stored.identifier
          const nextStored: StoredCustomer = { customer: next, identifier, version: stored.version + 1 }
          if (!(yield* repo.update(platform.id, nextStored, stored.version))) return yield* new VersionConflict()
          yield* outbox.append(yield* event(platform, "CUSTOMER.UPDATED", next))
          return next
        })
      )

    return {
      create: Effect.fn("Customers.create")(function* (platform: Platform.Platform, request: CreateCustomerRequest) {
        const now = yield* DateTime.now
        yield* CustomerUpdate.checkPastDates(request, CustomerUpdate.today(now))
        const { customer, identifier } = yield* build(platform, request, yield* ids.uuid, now)
        const created = yield* event(platform, "CUSTOMER.CREATED", customer)
        const verified = yield* Effect.transposeMapOption(verificationEventType(customer), (type) =>
          event(platform, type, customer)
        )
        yield* store.transaction(
          Effect.gen(function* () {
            yield* repo.insert(platform.id, customer, identifier)
            yield* provisioning.provision(platform, customer)
            yield* outbox.appendAll(Option.isSome(verified) ? [created, verified.value] : [created])
          })
        )
        return customer
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
        yield* CustomerUpdate.checkPastDates(request, CustomerUpdate.today(yield* DateTime.now))
        return yield* updateOnce(platform, id, request).pipe(
          Effect.retry({ schedule: updateRetries, while: (error) => error._tag === "VersionConflict" }),
          Effect.catchTag("VersionConflict", () =>
            Effect.fail(StoreFailure.StoreFailure.of("update customer: too many concurrent updates"))
          )
        )
      })
    }
  })
)
