import { Context, Data, DateTime, Effect, Layer, Option, Schedule, Schema } from "effect"
import { BeneficialOwnerRepo } from "./BeneficialOwnerRepo.js"
import type { DocumentHolderId } from "./Document.js"
import { DocumentRepo } from "./DocumentRepo.js"
import * as PacketCheck from "./PacketCheck.js"
import { Verification, type VerificationError, type VerificationId, VerificationId as Id } from "./Verification.js"
import { VerificationFinal, VerificationNotFound } from "./VerificationErrors.js"
import { type VerificationFilter, VerificationRepo } from "./VerificationRepo.js"
import {
  Customer,
  CustomerErrors,
  CustomerEvents,
  CustomerRepo,
  KycProvider,
  type VerificationStatus
} from "../customers/index.js"
import { DomainEvent, Ids, Outbox, type Page, ResourceId, StoreFailure, UnitOfWork } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"

/** The verification use cases. Every operation is scoped to the given platform. */
export class Verifications extends Context.Tag("@payrail/core/Verifications")<
  Verifications,
  {
    /**
     * Submits the customer for verification (`POST /verifications`): checks its packet, lets the KYC provider decide
     * and records a new `Verification`. In one unit of work: the customer's status (a compare-and-set on its
     * version, so of concurrent submissions each applies to the latest status and a final one is never changed),
     * its owners' statuses, its and its owners' documents marked submitted (unless the answer is `RESOLVE_ERRORS`),
     * the record, `VERIFICATION.<verificationStatus>` and, when the status changed, `CUSTOMER.KYC_*`/`KYB_*`. A
     * customer already `APPROVED` or `REJECTED` fails with `VerificationFinal` and nothing is recorded.
     */
    readonly submit: (
      platform: Platform.Platform,
      customerId: Customer.CustomerId
    ) => Effect.Effect<
      Verification,
      CustomerErrors.CustomerNotFound | CustomerErrors.CustomerDeleted | VerificationFinal | StoreFailure.StoreFailure
    >
    readonly get: (
      platform: Platform.Platform,
      id: VerificationId
    ) => Effect.Effect<Verification, VerificationNotFound | StoreFailure.StoreFailure>
    /** A newest-first page of the platform's verifications matching `filter`. */
    readonly list: (
      platform: Platform.Platform,
      filter: VerificationFilter,
      page: Page.PageRequest
    ) => Effect.Effect<Page.Page<Verification>, StoreFailure.StoreFailure>
    /**
     * The errors a submission of the customer would report now (`PacketCheck.check`), recording nothing: what the
     * hosted verification page shows.
     */
    readonly missing: (
      platform: Platform.Platform,
      customerId: Customer.CustomerId
    ) => Effect.Effect<ReadonlyArray<VerificationError>, CustomerErrors.CustomerNotFound | StoreFailure.StoreFailure>
  }
>() {}

const encodeCustomer = Schema.encodeSync(Customer.Customer)
const encodeVerification = Schema.encodeSync(Verification)

/** The event of a verification: `VERIFICATION.<verificationStatus>` (the reference's webhook types). */
export const verificationEventType = (
  verification: Verification
): `VERIFICATION.${Verification["verificationStatus"]}` => `VERIFICATION.${verification.verificationStatus}`

/** A concurrent change of the customer won the compare-and-set; the submission is tried again on the latest. */
class VersionConflict extends Data.TaggedError("VersionConflict") {}

const retries = Schedule.exponential("2 millis", 1.5).pipe(Schedule.jittered, Schedule.intersect(Schedule.recurs(24)))

const isFinal = (status: string): status is "APPROVED" | "REJECTED" => status === "APPROVED" || status === "REJECTED"

const withStatus = (
  customer: Customer.Customer,
  status: VerificationStatus.KycStatus,
  now: DateTime.Utc
): Customer.Customer =>
  customer.customerType === "INDIVIDUAL"
    ? new Customer.IndividualCustomer({ ...customer, kycStatus: status, updatedAt: now })
    : new Customer.BusinessCustomer({ ...customer, kybStatus: status, updatedAt: now })

export const layer = Layer.effect(
  Verifications,
  Effect.gen(function* () {
    const customers = yield* CustomerRepo.CustomerRepo
    const owners = yield* BeneficialOwnerRepo
    const documents = yield* DocumentRepo
    const verifications = yield* VerificationRepo
    const store = yield* UnitOfWork.UnitOfWork
    const outbox = yield* Outbox.Outbox
    const kyc = yield* KycProvider.KycProvider
    const ids = yield* Ids.Ids

    const event = (platform: Platform.Platform, type: string, data: { readonly [key: string]: unknown }) =>
      DomainEvent.make(platform.id, type, data).pipe(Effect.provideService(Ids.Ids, ids))

    const findCustomer = (platform: Platform.Platform, id: Customer.CustomerId) =>
      Effect.flatMap(
        customers.findById(platform.id, id),
        Option.match({
          onNone: () => Effect.fail(CustomerErrors.CustomerNotFound.of(id)),
          onSome: Effect.succeed
        })
      )

    // The customer's packet: its documents and (a business) its owners with theirs, oldest first.
    const packetOf = (platform: Platform.Platform, customer: Customer.Customer) =>
      Effect.gen(function* () {
        const declared = customer.customerType === "BUSINESS" ? yield* owners.listAll(platform.id, customer.id) : []
        const holders: Array<DocumentHolderId> = [customer.id, ...declared.map(({ owner }) => owner.id)]
        const held = yield* documents.listByHolders(platform.id, holders)
        const of = (holder: DocumentHolderId) =>
          held.filter(({ document }) => document.documentHolder === holder).map(({ document }) => document)
        const packet: PacketCheck.Packet = {
          customer,
          documents: of(customer.id),
          owners: declared.map(({ owner }) => ({ owner, documents: of(owner.id) }))
        }
        return { packet, documentIds: held.map(({ document }) => document.id) }
      })

    const submitOnce = (platform: Platform.Platform, customerId: Customer.CustomerId) =>
      store.transaction(
        Effect.gen(function* () {
          const stored = yield* findCustomer(platform, customerId)
          const current = stored.customer
          if (current.isDeleted) return yield* CustomerErrors.CustomerDeleted.of(current.id)
          const status = current.customerType === "INDIVIDUAL" ? current.kycStatus : current.kybStatus
          if (isFinal(status)) return yield* VerificationFinal.of(current.id, status)
          const { packet, documentIds } = yield* packetOf(platform, current)
          const errors = PacketCheck.check(packet)
          const decision = yield* kyc.decideSubmission({ platform, packet, errors })
          const now = yield* DateTime.now
          const changed = decision.status !== status
          const next = changed ? withStatus(current, decision.status, now) : current
          // Every submission bumps the customer's version, so concurrent submissions serialise on it.
          const applied = yield* customers.update(
            platform.id,
            { ...stored, customer: next, version: stored.version + 1 },
            stored.version
          )
          if (!applied) return yield* new VersionConflict()
          for (const owner of decision.owners) {
            yield* owners.resolveKycStatus(platform.id, owner.id, owner.kycStatus, now)
          }
          if (decision.verificationStatus !== "RESOLVE_ERRORS" && documentIds.length > 0) {
            yield* documents.markSubmitted(platform.id, documentIds, now)
          }
          const verification = new Verification({
            id: Id.make(ResourceId.format("Verification", yield* ids.uuid)),
            customerId: current.id,
            verificationStatus: decision.verificationStatus,
            errors: decision.verificationStatus === "RESOLVE_ERRORS" ? decision.errors : [],
            createdAt: now
          })
          yield* verifications.insert(platform.id, verification)
          const recorded = yield* event(platform, verificationEventType(verification), encodeVerification(verification))
          const customerEvent = changed ? CustomerEvents.verificationEventType(next) : Option.none()
          const announced = Option.isSome(customerEvent)
            ? [yield* event(platform, customerEvent.value, encodeCustomer(next))]
            : []
          yield* outbox.appendAll([recorded, ...announced])
          return verification
        })
      )

    return {
      submit: Effect.fn("Verifications.submit")(function* (
        platform: Platform.Platform,
        customerId: Customer.CustomerId
      ) {
        return yield* submitOnce(platform, customerId).pipe(
          Effect.retry({ schedule: retries, while: (error) => error._tag === "VersionConflict" }),
          Effect.catchTag("VersionConflict", () =>
            Effect.fail(StoreFailure.StoreFailure.of("submit verification: too many concurrent submissions"))
          )
        )
      }),

      get: Effect.fn("Verifications.get")(function* (platform: Platform.Platform, id: VerificationId) {
        return yield* Effect.flatMap(
          verifications.findById(platform.id, id),
          Option.match({ onNone: () => Effect.fail(VerificationNotFound.of(id)), onSome: Effect.succeed })
        )
      }),

      list: Effect.fn("Verifications.list")(function* (
        platform: Platform.Platform,
        filter: VerificationFilter,
        page: Page.PageRequest
      ) {
        return yield* verifications.list(platform.id, filter, page)
      }),

      missing: Effect.fn("Verifications.missing")(function* (
        platform: Platform.Platform,
        customerId: Customer.CustomerId
      ) {
        const stored = yield* findCustomer(platform, customerId)
        const { packet } = yield* packetOf(platform, stored.customer)
        return PacketCheck.check(packet)
      })
    }
  })
)
