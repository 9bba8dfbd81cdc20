import { Schema } from "effect"

const uuidPattern = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"

/**
 * The schema of a record identifier `<ResourceType>:<uuid>` (lowercase uuid), branded per resource type so that a
 * `CustomerId` cannot be passed where a `PlatformId` is expected. A malformed id fails to decode with a `pattern`
 * constraint, which the HTTP layer reports as a 400.
 */
export const make = <const T extends string>(resourceType: T) =>
  Schema.String.pipe(
    Schema.pattern(new RegExp(`^${resourceType}:${uuidPattern}$`), {
      description: `a ${resourceType} id of the form ${resourceType}:<uuid>`
    }),
    Schema.brand(`${resourceType}Id`),
    Schema.annotations({ identifier: `${resourceType}Id` })
  )

/** Builds the id string for a resource type from a freshly generated lowercase uuid. */
export const format = <T extends string>(resourceType: T, uuid: string): `${T}:${string}` =>
  `${resourceType}:${uuid.toLowerCase()}`
