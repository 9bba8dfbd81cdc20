import { Either } from "effect"
import { InvalidInput } from "../kernel/index.js"
import type { CardFilter, CardStatus } from "./Card.js"
import type { CreateCardRequest, RequestedStatus, UpdateCardRequest } from "./CardRequest.js"

/**
 * The rules of the card requests that a schema cannot state: our spec's and the reference API's names for one field
 * must agree when both are given, a card has exactly one funding source, a `PATCH` changes something, and closing
 * goes alone.
 */

const oneOf = <A extends string>(
  ours: A | undefined,
  theirs: A | undefined,
  oursName: string,
  theirsName: string
): Either.Either<A | undefined, InvalidInput.InvalidInput> =>
  ours !== undefined && theirs !== undefined && ours !== theirs
    ? Either.left(InvalidInput.InvalidInput.onField(theirsName, `must equal ${oursName} when both are given`))
    : Either.right(ours ?? theirs)

const fundingOf = (
  fundingSource: string | undefined,
  fundingSources: ReadonlyArray<string> | undefined
): Either.Either<string | undefined, InvalidInput.InvalidInput> => {
  if (fundingSources !== undefined && fundingSources.length !== 1) {
    return Either.left(InvalidInput.InvalidInput.onField("fundingSources", "must hold exactly one internal account id"))
  }
  return oneOf(fundingSource, fundingSources?.[0], "fundingSource", "fundingSources")
}

export interface CreateCard {
  readonly customerId: string
  readonly fundingSource: string
  readonly maxSpendPerTransaction: number | undefined
}

/** The cardholder, the funding source and the limit of a `POST /cards`, or the field that is wrong. */
export const create = (request: CreateCardRequest): Either.Either<CreateCard, InvalidInput.InvalidInput> =>
  Either.gen(function* () {
    const customerId = yield* oneOf(request.customerId, request.cardholderId, "customerId", "cardholderId")
    if (customerId === undefined)
      return yield* Either.left(InvalidInput.InvalidInput.onField("customerId", "is required"))
    const fundingSource = yield* fundingOf(request.fundingSource, request.fundingSources)
    if (fundingSource === undefined) {
      return yield* Either.left(InvalidInput.InvalidInput.onField("fundingSource", "is required"))
    }
    return { customerId, fundingSource, maxSpendPerTransaction: request.maxSpendPerTransaction ?? undefined }
  })

export interface UpdateCard {
  readonly status: RequestedStatus | undefined
  readonly fundingSource: string | undefined
  /** `undefined`: unchanged; `null`: cleared. */
  readonly maxSpendPerTransaction: number | null | undefined
}

/** What a `PATCH /cards/{id}` changes, or the field that is wrong. */
export const update = (request: UpdateCardRequest): Either.Either<UpdateCard, InvalidInput.InvalidInput> =>
  Either.gen(function* () {
    const status = yield* oneOf(request.status, request.state, "status", "state")
    const fundingSource = yield* fundingOf(request.fundingSource, request.fundingSources)
    const maxSpendPerTransaction = request.maxSpendPerTransaction
    if (status === undefined && fundingSource === undefined && maxSpendPerTransaction === undefined) {
      return yield* Either.left(
        InvalidInput.InvalidInput.onField(
          "status",
          "give at least one of status, fundingSource, maxSpendPerTransaction"
        )
      )
    }
    if (status === "CLOSED" && (fundingSource !== undefined || maxSpendPerTransaction !== undefined)) {
      return yield* Either.left(
        InvalidInput.InvalidInput.onField("status", "CLOSED cannot be combined with other changes")
      )
    }
    return { status, fundingSource, maxSpendPerTransaction }
  })

/** The query of `GET /cards`: our spec's filter names and the reference API's aliases, paging apart. */
export interface ListQuery {
  readonly customerId?: string | undefined
  readonly cardholderId?: string | undefined
  readonly accountId?: string | undefined
  readonly platformCardId?: string | undefined
  readonly status?: CardStatus | undefined
  readonly state?: CardStatus | undefined
  readonly sortOrder?: "asc" | "desc" | undefined
}

/** The filter of a `GET /cards` (newest first unless `sortOrder=asc`), or the alias that disagrees with our name. */
export const listFilter = (query: ListQuery): Either.Either<CardFilter, InvalidInput.InvalidInput> =>
  Either.gen(function* () {
    const customerId = yield* oneOf(query.customerId, query.cardholderId, "customerId", "cardholderId")
    const status = yield* oneOf(query.status, query.state, "status", "state")
    return {
      customerId,
      accountId: query.accountId,
      platformCardId: query.platformCardId,
      status,
      sortOrder: query.sortOrder ?? "desc"
    }
  })
