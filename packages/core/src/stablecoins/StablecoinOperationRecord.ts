import type { DateTime } from "effect"
import type { Stablecoin } from "./Stablecoin.js"
import { type OperationType, StablecoinOperation, type StablecoinOperationId } from "./StablecoinOperation.js"
import type { TransferOutcome } from "./StablecoinProvider.js"
import type { StoredProviderAccount } from "./StablecoinProviderAccount.js"
import type { BurnRequest, MintRequest } from "./StablecoinRequest.js"

/** What a mint or a burn records. */
export interface NewOperation {
  readonly id: StablecoinOperationId
  readonly stablecoin: Stablecoin
  readonly link: StoredProviderAccount
  readonly operationType: OperationType
  readonly request: MintRequest | BurnRequest
  readonly outcome: TransferOutcome
  readonly now: DateTime.Utc
}

/**
 * The operation a request and the provider's outcome make: the request's amount (canonical digits), funding source
 * or source, destination and description; the outcome's status, provider status and failure reason.
 */
export const make = ({ id, link, now, operationType, outcome, request, stablecoin }: NewOperation) =>
  new StablecoinOperation({
    id,
    stablecoinId: stablecoin.id,
    operationType,
    status: outcome.status,
    amount: BigInt(request.amount).toString(),
    provider: stablecoin.provider,
    providerEnvironment: stablecoin.providerEnvironment,
    stablecoinProviderAccountId: link.account.id,
    ...("fundingSource" in request ? { fundingSource: request.fundingSource } : { source: request.source }),
    destination: request.destination,
    providerStatus: outcome.providerStatus,
    ...(outcome.failureReason === undefined ? {} : { failureReason: outcome.failureReason }),
    ...(request.description === undefined ? {} : { description: request.description }),
    createdAt: now,
    updatedAt: now
  })
