import { DateTime } from "effect"
import type { DomainEvent } from "../kernel/index.js"

/** The type of the test webhook: it carries no `data` and is never retried. */
export const testType = "TEST"

/**
 * The JSON body of a webhook, serialized once: `{id, type, timestamp, data}` (`data` absent for `TEST`), `timestamp`
 * in ISO-8601 UTC. These exact bytes are signed and sent.
 */
export const body = (envelope: {
  readonly id: string
  readonly type: string
  readonly timestamp: DateTime.Utc
  readonly data?: DomainEvent.DomainEvent["data"]
}): string =>
  JSON.stringify({
    id: envelope.id,
    type: envelope.type,
    timestamp: DateTime.formatIso(envelope.timestamp),
    ...(envelope.data === undefined ? {} : { data: envelope.data })
  })

/** The body of an outbox event's webhook. */
export const ofEvent = (event: DomainEvent.DomainEvent): string =>
  body({ id: event.id, type: event.type, timestamp: event.timestamp, data: event.data })
