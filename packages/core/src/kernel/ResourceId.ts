import { type Brand, Schema } from "effect"

const uuidPattern = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"

const patternOf = (resourceType: string): RegExp => new RegExp(`^${resourceType}:${uuidPattern}$`)

/**
 * The schema of a record identifier `<ResourceType>:<uuid>` (lowercase uuid), branded per resource type so that a
 * `CustomerId` cannot be passed where a `PlatformId` is expected. A malformed id fails to decode with a `pattern`
 * constraint, which the HTTP layer reports as a 400.
 */
export const make = <const T extends string>(resourceType: T) =>
  Schema.String.pipe(
    Schema.pattern(patternOf(resourceType), {
      description: `a ${resourceType} id of the form ${resourceType}:<uuid>`
    }),
    Schema.brand(`${resourceType}Id`),
    Schema.annotations({ identifier: `${resourceType}Id` })
  )

/**
 * Whether a value is an id of `resourceType`, as `make(resourceType)` decodes it: a plain test of the same pattern,
 * for code that checks many ids at once (a store's rows).
 */
export const is = <const T extends string>(resourceType: T) => {
  const pattern = patternOf(resourceType)
  return (value: unknown): value is string & Brand.Brand<`${T}Id`> => typeof value === "string" && pattern.test(value)
}

/** Builds the id string for a resource type from a freshly generated lowercase uuid. */
export const format = <T extends string>(resourceType: T, uuid: string): `${T}:${string}` =>
  `${resourceType}:${uuid.toLowerCase()}`
