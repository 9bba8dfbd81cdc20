import { Context, Data, DateTime, Effect, Either, Layer, Option, Schedule } from "effect"
import { BeneficialOwner, BeneficialOwnerId } from "./BeneficialOwner.js"
import { BeneficialOwnerNotFound } from "./BeneficialOwnerErrors.js"
import { BeneficialOwnerRepo, type StoredBeneficialOwner } from "./BeneficialOwnerRepo.js"
import type {
  CreateBeneficialOwnerRequest,
  PersonalInfoUpdate,
  UpdateBeneficialOwnerRequest
} from "./BeneficialOwnerRequest.js"
import { type Customer, CustomerErrors, CustomerRepo, CustomerUpdate } from "../customers/index.js"
import { FieldError, Ids, InvalidInput, type Page, ResourceId, StoreFailure, UnitOfWork } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"

/** The beneficial owner use cases. Every operation is scoped to the given platform. */
export class BeneficialOwners extends Context.Tag("@payrail/core/BeneficialOwners")<
  BeneficialOwners,
  {
    /**
     * Declares an owner of a `BUSINESS` customer of the platform, `UNVERIFIED` until the business's verification
     * resolves it. An individual customer fails `INVALID_INPUT` on `customerId`; an unknown one `USER_NOT_FOUND`; a
     * deleted one `CUSTOMER_DELETED`.
     */
    readonly create: (
      platform: Platform.Platform,
      request: CreateBeneficialOwnerRequest
    ) => Effect.Effect<
      BeneficialOwner,
      | CustomerErrors.CustomerNotFound
      | CustomerErrors.CustomerDeleted
      | InvalidInput.InvalidInput
      | StoreFailure.StoreFailure
    >
    readonly get: (
      platform: Platform.Platform,
      id: BeneficialOwnerId
    ) => Effect.Effect<BeneficialOwner, BeneficialOwnerNotFound | StoreFailure.StoreFailure>
    /** A newest-first page of the customer's owners (empty for a customer the platform does not have). */
    readonly list: (
      platform: Platform.Platform,
      customerId: Customer.CustomerId,
      page: Page.PageRequest
    ) => Effect.Effect<Page.Page<BeneficialOwner>, StoreFailure.StoreFailure>
    /**
     * Applies the given fields (and those given of `personalInfo`) over the latest version, keeping `kycStatus` as
     * it is: concurrent updates never lose each other's fields, and a rename never re-derives a status. An owner of
     * a deleted business fails `CUSTOMER_DELETED`.
     */
    readonly update: (
      platform: Platform.Platform,
      id: BeneficialOwnerId,
      patch: UpdateBeneficialOwnerRequest
    ) => Effect.Effect<
      BeneficialOwner,
      BeneficialOwnerNotFound | CustomerErrors.CustomerDeleted | InvalidInput.InvalidInput | StoreFailure.StoreFailure
    >
  }
>() {}

/** A concurrent update won the compare-and-set; the update is tried again on the latest version. */
class VersionConflict extends Data.TaggedError("VersionConflict") {}

// As `Customers.update`: losers re-read and re-apply after a short, jittered, growing pause.
const updateRetries = Schedule.exponential("2 millis", 1.5).pipe(
  Schedule.jittered,
  Schedule.intersect(Schedule.recurs(24))
)

const notBusiness = InvalidInput.InvalidInput.withErrors([
  new FieldError.FieldError({
    field: "customerId",
    message: "must be a BUSINESS customer: only businesses declare beneficial owners",
    constraint: { enum: ["BUSINESS"] }
  })
])

// A birth date's format is the schema's; that it is not in the future needs the clock.
const checkBirthDate = (birthDate: string | undefined, now: DateTime.Utc) =>
  birthDate !== undefined && birthDate > CustomerUpdate.today(now)
    ? Either.left(InvalidInput.InvalidInput.onField("personalInfo.birthDate", "must not be in the future"))
    : Either.void

const applyPersonalInfo = (current: BeneficialOwner["personalInfo"], patch: PersonalInfoUpdate | undefined) => {
  if (patch === undefined) return current
  const { identifier: _identifier, ...fields } = patch
  return { ...current, ...fields }
}

export const layer = Layer.effect(
  BeneficialOwners,
  Effect.gen(function* () {
    const repo = yield* BeneficialOwnerRepo
    const customers = yield* CustomerRepo.CustomerRepo
    const store = yield* UnitOfWork.UnitOfWork
    const ids = yield* Ids.Ids

    const find = (platform: Platform.Platform, id: BeneficialOwnerId) =>
      Effect.flatMap(
        repo.findById(platform.id, id),
        Option.match({ onNone: () => Effect.fail(BeneficialOwnerNotFound.of(id)), onSome: Effect.succeed })
      )

    const updateOnce = (platform: Platform.Platform, id: BeneficialOwnerId, patch: UpdateBeneficialOwnerRequest) =>
      store.transaction(
        Effect.gen(function* () {
          const stored = yield* find(platform, id)
          // An owner of a deleted business is kept for the record but no longer changes.
          const business = yield* customers.findById(platform.id, stored.owner.customerId)
          if (Option.exists(business, ({ customer }) => customer.isDeleted)) {
            return yield* CustomerErrors.CustomerDeleted.of(stored.owner.customerId)
          }
          const owner = new BeneficialOwner({
            ...stored.owner,
            ...(patch.roles === undefined ? {} : { roles: patch.roles }),
            ...(patch.ownershipPercentage === undefined ? {} : { ownershipPercentage: patch.ownershipPercentage }),
            personalInfo: applyPersonalInfo(stored.owner.personalInfo, patch.personalInfo),
            updatedAt: yield* DateTime.now
          })
          const next: StoredBeneficialOwner = {
            owner,
            identifier: patch.personalInfo?.identifier ?? stored.identifier,
            version: stored.version + 1
          }
          if (!(yield* repo.update(platform.id, next, stored.version))) return yield* new VersionConflict()
          return owner
        })
      )

    return BeneficialOwners.of({
      create: Effect.fn("BeneficialOwners.create")(function* (
        platform: Platform.Platform,
        request: CreateBeneficialOwnerRequest
      ) {
        const now = yield* DateTime.now
        yield* checkBirthDate(request.personalInfo.birthDate, now)
        const { identifier, ...personalInfo } = request.personalInfo
        const owner = new BeneficialOwner({
          id: BeneficialOwnerId.make(ResourceId.format("BeneficialOwner", yield* ids.uuid)),
          customerId: request.customerId,
          roles: request.roles,
          ownershipPercentage: request.ownershipPercentage,
          personalInfo,
          kycStatus: "UNVERIFIED",
          createdAt: now,
          updatedAt: now
        })
        // The customer is read in the unit of work that stores the owner, so the check and the write commit together.
        yield* store.transaction(
          Effect.gen(function* () {
            const customer = yield* customers.findById(platform.id, request.customerId)
            if (Option.isNone(customer)) return yield* CustomerErrors.CustomerNotFound.of(request.customerId)
            if (customer.value.customer.isDeleted) return yield* CustomerErrors.CustomerDeleted.of(request.customerId)
            if (customer.value.customer.customerType !== "BUSINESS") return yield* notBusiness
            yield* repo.insert(platform.id, { owner, identifier, version: 1 })
          })
        )
        return owner
      }),

      get: Effect.fn("BeneficialOwners.get")(function* (platform: Platform.Platform, id: BeneficialOwnerId) {
        return (yield* find(platform, id)).owner
      }),

      list: Effect.fn("BeneficialOwners.list")(function* (
        platform: Platform.Platform,
        customerId: Customer.CustomerId,
        page: Page.PageRequest
      ) {
        return yield* repo.list(platform.id, customerId, page)
      }),

      update: Effect.fn("BeneficialOwners.update")(function* (
        platform: Platform.Platform,
        id: BeneficialOwnerId,
        patch: UpdateBeneficialOwnerRequest
      ) {
        yield* checkBirthDate(patch.personalInfo?.birthDate, yield* DateTime.now)
        return yield* updateOnce(platform, id, patch).pipe(
          Effect.retry({ schedule: updateRetries, while: (error) => error._tag === "VersionConflict" }),
          Effect.catchTag("VersionConflict", () =>
            Effect.fail(StoreFailure.StoreFailure.of("update beneficial owner: too many concurrent updates"))
          )
        )
      })
    })
  })
)
