import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, Schema } from "effect"
import * as fc from "fast-check"
import { WebhookDelivery } from "@payrail/core"

describe("WebhookDelivery.encode", () => {
  it("gives what the schema's encoding gives, for any delivery", () => {
    const encodeWithSchema = Schema.encodeSync(WebhookDelivery.WebhookDelivery)
    fc.assert(
      fc.property(Arbitrary.make(WebhookDelivery.WebhookDelivery), (delivery) => {
        // Compared as stored: the JSON text of each (an absent optional and an undefined one store alike).
        expect(JSON.parse(JSON.stringify(WebhookDelivery.encode(delivery)))).toStrictEqual(
          JSON.parse(JSON.stringify(encodeWithSchema(delivery)))
        )
      }),
      { numRuns: 500 }
    )
  })
})
