import { Effect, Layer, Option } from "effect"
import { ContactCode, ContactCodeRepo } from "@payrail/core"
import { MemoryState, removeEntry, setEntry } from "../kernel/MemoryState.js"

// NUL never occurs in a platform or customer id, so the triple maps to one string.
const keyOf = (platformId: string, customerId: string, channel: string) =>
  `${platformId}\u0000${customerId}\u0000${channel}`

/**
 * `ContactCodeRepo` in memory: one code per (platform, customer, channel), a new one replacing the old. `take` and
 * `recordFailure` check that the stored code is still the one with `id` and change it in one atomic step, so of
 * concurrent correct confirms exactly one takes it. Writes join the caller's unit of work.
 */
export const layer: Layer.Layer<ContactCodeRepo.ContactCodeRepo, never, MemoryState> = Layer.effect(
  ContactCodeRepo.ContactCodeRepo,
  Effect.gen(function* () {
    const state = yield* MemoryState
    const rows = state.table<ContactCode.ContactCode>("contactCodes")

    const current = (key: string, id: string) =>
      Option.fromNullable(rows.get(key)).pipe(Option.filter((code) => code.id === id))

    return {
      put: (platformId, code) =>
        state.write(() => [undefined, setEntry(rows, keyOf(platformId, code.customerId, code.channel), code)]),
      find: (platformId, customerId, channel) =>
        Effect.sync(() => Option.fromNullable(rows.get(keyOf(platformId, customerId, channel)))),
      take: (platformId, customerId, channel, id) =>
        state.write((): readonly [boolean, () => void] => {
          const key = keyOf(platformId, customerId, channel)
          return Option.isSome(current(key, id)) ? [true, removeEntry(rows, key)] : [false, () => {}]
        }),
      recordFailure: (platformId, customerId, channel, id) =>
        state.write((): readonly [number, () => void] => {
          const key = keyOf(platformId, customerId, channel)
          const found = current(key, id)
          if (Option.isNone(found)) return [0, () => {}]
          const failedAttempts = found.value.failedAttempts + 1
          return [failedAttempts, setEntry(rows, key, new ContactCode.ContactCode({ ...found.value, failedAttempts }))]
        })
    }
  })
)
