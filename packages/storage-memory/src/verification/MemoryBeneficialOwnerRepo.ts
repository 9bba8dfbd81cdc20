import { Effect, Layer, Option } from "effect"
import { BeneficialOwner, BeneficialOwnerRepo, Page } from "@payrail/core"
import { insertNew, MemoryState, setEntry } from "../kernel/MemoryState.js"

interface Row extends BeneficialOwnerRepo.StoredBeneficialOwner {
  readonly platformId: string
}

const keyOf = (owner: BeneficialOwner.BeneficialOwner): Page.Cursor => ({ createdAt: owner.createdAt, id: owner.id })

const stored = ({ platformId: _, ...record }: Row): BeneficialOwnerRepo.StoredBeneficialOwner => record

const isFinal = (status: BeneficialOwner.BeneficialOwner["kycStatus"]) => status === "APPROVED" || status === "REJECTED"

/**
 * `BeneficialOwnerRepo` in memory, with the SQL adapter's rules: an id is inserted once (at version 1; a second
 * insert fails with `StoreFailure` and changes nothing), every read and write is scoped to the platform, `update`
 * is a compare-and-set on the version, and `resolveKycStatus` checks and sets the status in one atomic step, never
 * changing a final one. Writes join the caller's unit of work.
 */
export const layer: Layer.Layer<BeneficialOwnerRepo.BeneficialOwnerRepo, never, MemoryState> = Layer.effect(
  BeneficialOwnerRepo.BeneficialOwnerRepo,
  Effect.gen(function* () {
    const state = yield* MemoryState
    const rows = state.table<Row>("beneficialOwners")

    const find = (platformId: string, id: string): Row | undefined => {
      const row = rows.get(id)
      return row !== undefined && row.platformId === platformId ? row : undefined
    }
    const ofCustomer = (platformId: string, customerId: string) =>
      Array.from(rows.values()).filter((row) => row.platformId === platformId && row.owner.customerId === customerId)

    return BeneficialOwnerRepo.BeneficialOwnerRepo.of({
      insert: (platformId, owner) =>
        insertNew(state, rows, "beneficialOwners.insert", owner.owner.id, { ...owner, platformId, version: 1 }),
      findById: (platformId, id) => Effect.sync(() => Option.map(Option.fromNullable(find(platformId, id)), stored)),
      list: (platformId, customerId, page) =>
        Effect.sync(() => {
          const matching = ofCustomer(platformId, customerId)
            .map((row) => row.owner)
            .sort((a, b) => Page.compareNewestFirst(keyOf(a), keyOf(b)))
          const after = page.after
          const rest = Option.isSome(after)
            ? matching.filter((owner) => Page.isAfter(keyOf(owner), after.value))
            : matching
          return Page.fromOverfetch(rest.slice(0, page.limit + 1), page, keyOf, matching.length)
        }),
      listAll: (platformId, customerId) =>
        Effect.sync(() =>
          ofCustomer(platformId, customerId)
            .sort((a, b) => Page.compareNewestFirst(keyOf(b.owner), keyOf(a.owner)))
            .map(stored)
        ),
      update: (platformId, next, expectedVersion) =>
        state.write((): readonly [boolean, () => void] => {
          const current = find(platformId, next.owner.id)
          if (current === undefined || current.version !== expectedVersion) return [false, () => {}]
          return [true, setEntry(rows, next.owner.id, { ...next, platformId, version: expectedVersion + 1 })]
        }),
      resolveKycStatus: (platformId, id, status, updatedAt) =>
        state.write((): readonly [boolean, () => void] => {
          const current = find(platformId, id)
          if (current === undefined || isFinal(current.owner.kycStatus)) return [false, () => {}]
          const owner = new BeneficialOwner.BeneficialOwner({ ...current.owner, kycStatus: status, updatedAt })
          return [true, setEntry(rows, id, { ...current, owner, version: current.version + 1 })]
        })
    })
  })
)
