import { DomainEvent, Platform, ResourceId, WebhookDelivery } from "@payrail/core"
import { Schema } from "effect"
import {
  columnsOf,
  dateTimeOf,
  type FastDecoder,
  isInt,
  isOneOf,
  jsonObjectOf,
  textsOf
} from "../../internal/rowDecoding.js"

const { fields: eventFields } = DomainEvent.DomainEvent

/** A row of the attempt-source read: the event, its platform's endpoint and active secrets, its delivery if any. */
export const SourceRow = Schema.Struct({
  ord: Schema.Int,
  id: eventFields.id,
  platform_id: eventFields.platformId,
  type: eventFields.type,
  timestamp: Schema.DateTimeUtcFromDate,
  data: eventFields.data,
  url: Schema.NullOr(Schema.String),
  environment: Schema.NullOr(Platform.Environment),
  secrets: Schema.Array(Schema.String),
  delivery: Schema.NullOr(WebhookDelivery.WebhookDelivery)
})

const isEventId = ResourceId.is("Webhook")
const isPlatformId = ResourceId.is("Platform")
const isEnvironment = isOneOf(Platform.Environment.literals)

/**
 * `SourceRow`'s decoding without the schema's interpretation, for the rows of a webhook batch (up to 64 each), when
 * the event has no delivery yet (its first attempt, by far the most common); a stored delivery is left to the schema.
 */
export const fastSourceRow: FastDecoder<typeof SourceRow.Type> = (row) => {
  const columns = columnsOf(row)
  if (columns === undefined || columns["delivery"] !== null) return undefined
  const { environment, id, ord, platform_id, type, url } = columns
  const timestamp = dateTimeOf(columns["timestamp"])
  const data = jsonObjectOf(columns["data"])
  const secrets = textsOf(columns["secrets"])
  if (
    !isInt(ord) ||
    !isEventId(id) ||
    !isPlatformId(platform_id) ||
    typeof type !== "string" ||
    timestamp === undefined ||
    data === undefined ||
    !(url === null || typeof url === "string") ||
    !(environment === null || isEnvironment(environment)) ||
    secrets === undefined
  ) {
    return undefined
  }
  return { ord, id, platform_id, type, timestamp, data, url, environment, secrets, delivery: null }
}
