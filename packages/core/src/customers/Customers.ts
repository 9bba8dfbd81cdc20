import { Clock, Context, DateTime, Effect, Layer, Option, Schema } from "effect"
import { BusinessCustomer, Customer, CustomerId, IndividualCustomer } from "./Customer.js"
import type { CustomerFilter } from "./CustomerRepo.js"
import { CustomerRepo, type StoredCustomer } from "./CustomerRepo.js"
import type { CreateCustomerRequest, UpdateCustomerRequest } from "./CustomerRequest.js"
import { CustomerNotFound, type PlatformCustomerIdTaken } from "./CustomerErrors.js"
import { KycProvider } from "./KycProvider.js"
import * as UmaAddress from "./UmaAddress.js"
import { DomainEvent, FieldError, Ids, InvalidInput, Outbox, type Page, ResourceId, Store, StoreFailure } from "../kernel/index.js"
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
    ) => Effect.Effect<Customer, PlatformCustomerIdTaken | StoreFailure.StoreFailure>
    readonly get: (platform: Platform.Platform, id: CustomerId) => Effect.Effect<Customer, CustomerNotFound | StoreFailure.StoreFailure>
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
const maxUpdateAttempts = 8

const notFound = (id: string) => CustomerNotFound.of(id)

const statusEventType = (customer: Customer): Option.Option<string> => {
  const [kind, status] =
    customer.customerType === "INDIVIDUAL" ? ["KYC", customer.kycStatus] : ["KYB", customer.kybStatus]
  return status === "UNVERIFIED" ? Option.none() : Option.some(`CUSTOMER.${kind}_${status}`)
}

const applyUpdate = (
  current: Customer,
  request: UpdateCustomerRequest,
  updatedAt: DateTime.Utc
): Customer | InvalidInput.InvalidInput => {
  if (request.customerType !== current.customerType) {
    return InvalidInput.InvalidInput.withErrors([
      new FieldError.FieldError({
        field: "customerType",
        message: `must match the customer's type ${current.customerType}`,
        constraint: { enum: [current.customerType] }
      })
    ])
  }
  if (current.customerType === "INDIVIDUAL" && request.customerType === "INDIVIDUAL") {
    const { customerType: _type, identifier: _identifier, ...fields } = request
    return new IndividualCustomer({ ...current, ...fields, updatedAt })
  }
  if (current.customerType === "BUSINESS" && request.customerType === "BUSINESS") {
    const { customerType: _type, businessInfo, ...fields } = request
    return new BusinessCustomer({
      ...current,
      ...fields,
      businessInfo: { ...current.businessInfo, ...businessInfo },
      updatedAt
    })
  }
  return current
}

export const layer = Layer.effect(
  Customers,
  Effect.gen(function* () {
    const repo = yield* CustomerRepo
    const store = yield* Store.Store
    const outbox = yield* Outbox.Outbox
    const kyc = yield* KycProvider
    const ids = yield* Ids.Ids
    const provisioning = yield* CustomerProvisioning

    const event = (platform: Platform.Platform, type: string, customer: Customer) =>
      Effect.gen(function* () {
        const id = DomainEvent.EventId.make(ResourceId.format("Webhook", yield* ids.uuid))
        const timestamp = DateTime.unsafeMake(yield* Clock.currentTimeMillis)
        return new DomainEvent.DomainEvent({ id, platformId: platform.id, type, timestamp, data: encodeCustomer(customer) })
      })

    const find = (platform: Platform.Platform, id: CustomerId) =>
      Effect.flatMap(repo.findById(platform.id, id), Option.match({
        onNone: () => Effect.fail(notFound(id)),
        onSome: Effect.succeed
      }))

    return {
      create: (platform, request) =>
        Effect.gen(function* () {
          const uuid = yield* ids.uuid
          const id = CustomerId.make(ResourceId.format("Customer", uuid))
          const now = DateTime.unsafeMake(yield* Clock.currentTimeMillis)
          const verification = yield* kyc.initialVerification({ platform, request })
          const common = {
            id,
            platformCustomerId: request.platformCustomerId ?? uuid,
            umaAddress: UmaAddress.forCustomer(uuid, platform.config.umaDomain),
            createdAt: now,
            updatedAt: now,
            isDeleted: false
          }
          let customer: Customer
          let identifier = Option.none<string>()
          if (request.customerType === "INDIVIDUAL") {
            const { customerType: _type, platformCustomerId: _pcid, identifier: given, ...fields } = request
            identifier = Option.fromNullable(given)
            const kycStatus = verification.customerType === "INDIVIDUAL" ? verification.kycStatus : "UNVERIFIED"
            customer = new IndividualCustomer({ ...fields, ...common, customerType: "INDIVIDUAL", kycStatus })
          } else {
            const { customerType: _type, platformCustomerId: _pcid, ...fields } = request
            const kybStatus = verification.customerType === "BUSINESS" ? verification.kybStatus : "UNVERIFIED"
            customer = new BusinessCustomer({ ...fields, ...common, customerType: "BUSINESS", kybStatus })
          }
          const created = yield* event(platform, "CUSTOMER.CREATED", customer)
          const statusEvent = yield* Effect.transposeMapOption(statusEventType(customer), (type) => event(platform, type, customer))
          yield* store.transaction(
            Effect.gen(function* () {
              yield* repo.insert(platform.id, customer, identifier)
              yield* provisioning.provision(platform, customer)
              yield* outbox.append(created)
              if (Option.isSome(statusEvent)) yield* outbox.append(statusEvent.value)
            })
          )
          return customer
        }),

      get: (platform, id) => Effect.map(find(platform, id), (stored) => stored.customer),

      list: (platform, filter, page) => repo.list(platform.id, filter, page),

      update: (platform, id, request) => {
        const attempt: Effect.Effect<Option.Option<Customer>, CustomerNotFound | InvalidInput.InvalidInput | StoreFailure.StoreFailure> =
          store.transaction(
            Effect.gen(function* () {
              const stored = yield* find(platform, id)
              const now = DateTime.unsafeMake(yield* Clock.currentTimeMillis)
              const next = applyUpdate(stored.customer, request, now)
              if (next instanceof InvalidInput.InvalidInput) return yield* Effect.fail(next)
              const identifier =
                request.customerType === "INDIVIDUAL" && request.identifier !== undefined
                  ? Option.some(request.identifier)
                  : stored.identifier
              const nextStored: StoredCustomer = { customer: next, identifier, version: stored.version + 1 }
              const applied = yield* repo.update(platform.id, nextStored, stored.version)
              if (!applied) return Option.none()
              yield* outbox.append(yield* event(platform, "CUSTOMER.UPDATED", next))
              return Option.some(next)
            })
          )
        const loop = (remaining: number): Effect.Effect<Customer, CustomerNotFound | InvalidInput.InvalidInput | StoreFailure.StoreFailure> =>
          Effect.flatMap(attempt, Option.match({
            onSome: Effect.succeed,
            onNone: () =>
              remaining > 1
                ? loop(remaining - 1)
                : Effect.fail(StoreFailure.StoreFailure.of("update customer: too many concurrent updates"))
          }))
        return loop(maxUpdateAttempts)
      }
    }
  })
)
