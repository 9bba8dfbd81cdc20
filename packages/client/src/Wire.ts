import type { Brand, DateTime } from "effect"

/**
 * A contract type as JSON carries it: branded ids and codes are plain strings and numbers, `bigint` amounts are
 * numbers, timestamps are ISO 8601 strings, and objects and arrays hold wire values in turn. Literal unions (statuses,
 * `customerType`, ...) stay literal unions, so a discriminated union still narrows on its tag.
 */
export type Wire<T> = T extends { readonly [Brand.BrandTypeId]: unknown }
  ? T extends string
    ? string
    : T extends number
      ? number
      : T
  : T extends bigint
    ? number
    : T extends DateTime.DateTime | Date
      ? string
      : T extends FormData | Blob
        ? T
        : T extends ReadonlyArray<infer Item>
          ? ReadonlyArray<Wire<Item>>
          : T extends object
            ? { readonly [K in keyof T]: Wire<T[K]> }
            : T
