import { Option } from "effect"
import { DomainEvent, Money } from "../kernel/index.js"
import { available, balanceAfter, type PostResult } from "./Ledger.js"

/** A place in an event's `data`: the keys from the top, each object created if missing. */
export type DataPath = ReadonlyArray<string>

/**
 * A domain event to record in the same step as a posting (`Ledger.postRecording`), completed with figures only the
 * posting knows: the posting's id at each `postingIdAt` path of its `data`, and for each `balancesAt` entry the
 * guarded account's available (`postedMinor - pendingDebitsMinor`) and posted balances right after the posting, as
 * JSON numbers of minor units. Each path's last key is added or replaced; its parents must exist in `data` (else
 * it is left as it is). Every `balancesAt` account must be a guarded account of the posting: otherwise nothing
 * applies and the call fails as `StoreFailure`. The ledger knows nothing else of the event: what it reports is
 * the caller's.
 */
export interface RecordedEvent {
  readonly event: DomainEvent.DomainEvent
  readonly postingIdAt: ReadonlyArray<DataPath>
  readonly balancesAt: ReadonlyArray<{
    readonly accountId: string
    readonly availableAt: DataPath
    readonly postedAt: DataPath
  }>
}

type Data = DomainEvent.DomainEvent["data"]

const isObject = (value: unknown): value is Data => typeof value === "object" && value !== null && !Array.isArray(value)

// As PostgreSQL's `jsonb_set`: the last key is added or replaced; a missing parent leaves `data` as it is.
const setAt = (data: Data, path: DataPath, value: unknown): Data => {
  const [key, ...rest] = path
  if (key === undefined) return data
  if (rest.length === 0) return { ...data, [key]: value }
  const inner = data[key]
  return isObject(inner) ? { ...data, [key]: setAt(inner, rest, value) } : data
}

/**
 * The event as the posting completes it (what every adapter records): `data` with the posting id and balances of
 * `result` written at their paths.
 */
export const complete = (recorded: RecordedEvent, result: PostResult): DomainEvent.DomainEvent => {
  let data = recorded.event.data
  for (const path of recorded.postingIdAt) data = setAt(data, path, result.postingId)
  for (const { accountId, availableAt, postedAt } of recorded.balancesAt) {
    const balance = balanceAfter(result, accountId)
    if (Option.isNone(balance)) continue
    data = setAt(data, availableAt, Money.toWire(available(balance.value)))
    data = setAt(data, postedAt, Money.toWire(balance.value.postedMinor))
  }
  return new DomainEvent.DomainEvent({ ...recorded.event, data })
}
