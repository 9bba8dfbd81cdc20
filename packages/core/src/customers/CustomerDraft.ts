import { DateTime, Effect, Option, Schema } from "effect"
import { DomainEvent, Ids, type InvalidInput, ResourceId } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import { BusinessCustomer, Customer, CustomerId, IndividualCustomer } from "./Customer.js"
import { type CustomerEventType, verificationEventType } from "./CustomerEvents.js"
import type { CreateCustomerRequest } from "./CustomerRequest.js"
import * as CustomerUpdate from "./CustomerUpdate.js"
import { type InitialVerification, KycProvider } from "./KycProvider.js"
import * as UmaAddress from "./UmaAddress.js"

/** What creating a customer takes beside the request: a bulk import brings each customer's UMA address. */
export interface CreateOptions {
  /**
   * The customer's UMA address, before the request's `umaAddress`; generated from its id (`UmaAddress.forCustomer`)
   * when neither gives one.
   */
  readonly umaAddress?: UmaAddress.UmaAddress
}

const encodeCustomer = Schema.encodeSync(Customer)

/**
 * A customer built from a creation request and not stored yet: the record, its write-only identifier and the events
 * its creation records (`CUSTOMER.CREATED`, then `CUSTOMER.KYC_*`/`KYB_*` when the status resolved at creation).
 * `Customers.create` stores one; `Customers.createMany` stores many at once.
 */
export interface CustomerDraft {
  readonly customer: Customer
  readonly identifier: Option.Option<string>
  readonly events: ReadonlyArray<DomainEvent.DomainEvent>
}

/**
 * The customer record of `request`, with the id `Customer:<uuid>`, the verification status the provider assigned,
 * `platformCustomerId` defaulting to the uuid and the UMA address of `options` or the request (else one derived
 * from the id).
 */
export const build = (
  platform: Platform.Platform,
  request: CreateCustomerRequest,
  verification: InitialVerification,
  uuid: string,
  now: DateTime.Utc,
  options: CreateOptions
): { readonly customer: Customer; readonly identifier: Option.Option<string> } => {
  const common = {
    id: CustomerId.make(ResourceId.format("Customer", uuid)),
    platformCustomerId: request.platformCustomerId ?? uuid,
    umaAddress: options.umaAddress ?? request.umaAddress ?? UmaAddress.forCustomer(uuid, platform.config.umaDomain),
    createdAt: now,
    updatedAt: now,
    isDeleted: false,
    ...CustomerUpdate.contactFields(undefined, request)
  }
  if (request.customerType === "INDIVIDUAL") {
    const { customerType: _type, platformCustomerId: _pcid, umaAddress: _uma, identifier, ...fields } = request
    const kycStatus = verification.customerType === "INDIVIDUAL" ? verification.kycStatus : "UNVERIFIED"
    const customer = new IndividualCustomer({ ...fields, ...common, customerType: "INDIVIDUAL", kycStatus })
    return { customer, identifier: Option.fromNullable(identifier) }
  }
  const { customerType: _type, platformCustomerId: _pcid, umaAddress: _uma, ...fields } = request
  const kybStatus = verification.customerType === "BUSINESS" ? verification.kybStatus : "UNVERIFIED"
  const customer = new BusinessCustomer({ ...fields, ...common, customerType: "BUSINESS", kybStatus })
  return { customer, identifier: Option.none<string>() }
}

/**
 * Everything about a new customer that needs no store: the rules that need the clock (no birth or incorporation
 * date in the future, `InvalidInput`), the provider's initial verification, the record (`build`) and its creation
 * events. Nothing is stored, so a refused draft leaves nothing behind.
 */
export const make = (
  platform: Platform.Platform,
  request: CreateCustomerRequest,
  options: CreateOptions = {}
): Effect.Effect<CustomerDraft, InvalidInput.InvalidInput, KycProvider | Ids.Ids> =>
  Effect.gen(function* () {
    const now = yield* DateTime.now
    yield* CustomerUpdate.checkPastDates(request, CustomerUpdate.today(now))
    const verification = yield* Effect.flatMap(KycProvider, (kyc) => kyc.initialVerification({ platform, request }))
    const uuid = yield* Effect.flatMap(Ids.Ids, (ids) => ids.uuid)
    const { customer, identifier } = build(platform, request, verification, uuid, now, options)
    const event = (type: CustomerEventType) => DomainEvent.make(platform.id, type, encodeCustomer(customer))
    const created = yield* event("CUSTOMER.CREATED")
    const verified = yield* Effect.transposeMapOption(verificationEventType(customer), event)
    return { customer, identifier, events: Option.isSome(verified) ? [created, verified.value] : [created] }
  })
