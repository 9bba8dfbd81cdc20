import { Effect, Option, Schema } from "effect"
import { DomainEvent, type Ids, type Page, type StoreFailure } from "../kernel/index.js"
import { QuoteRepo, TransactionRepo } from "../payments/index.js"
import { AgentAction, type StoredAgentAction } from "./AgentAction.js"

/** The webhook an action waiting for the platform sends (data: the full action, as the API shows it). */
export const pendingApprovalEvent = "AGENT_ACTION.PENDING_APPROVAL"

const encode = Schema.encodeSync(AgentAction)

/** What composing an action's view reads: its quote and its transaction. */
export type Requirements = QuoteRepo.QuoteRepo | TransactionRepo.TransactionRepo

/**
 * The action as the API shows it, composed from the stored action and the current state of what it references:
 * `quote` (as it now is) for `EXECUTE_QUOTE`, `transaction` only once the action executed, `rejectionReason` only
 * when `REJECTED`, `failureReason` only when `FAILED`.
 */
export const view = (stored: StoredAgentAction): Effect.Effect<AgentAction, StoreFailure.StoreFailure, Requirements> =>
  Effect.gen(function* () {
    const quote =
      stored.quoteId === undefined
        ? Option.none()
        : yield* Effect.flatMap(QuoteRepo.QuoteRepo, (quotes) => quotes.findById(stored.platformId, stored.quoteId!))
    const transaction =
      stored.executed && stored.transactionId !== undefined
        ? Option.map(
            yield* Effect.flatMap(TransactionRepo.TransactionRepo, (transactions) =>
              transactions.findById(stored.platformId, stored.transactionId!)
            ),
            (found) => found.transaction
          )
        : Option.none()
    const transferDetails =
      stored.transferDetails === undefined
        ? undefined
        : {
            amount: stored.transferDetails.amount,
            currency: stored.transferDetails.currency,
            sourceAccountId: stored.transferDetails.sourceAccountId,
            destinationAccountId: stored.transferDetails.destinationAccountId
          }
    // Built from stored, validated parts: the constructor's checks would repeat them.
    return new AgentAction(
      {
        id: stored.id,
        agentId: stored.agentId,
        customerId: stored.customerId,
        platformCustomerId: stored.platformCustomerId,
        status: stored.status,
        type: stored.type,
        ...(Option.isSome(quote) ? { quote: quote.value } : {}),
        ...(transferDetails === undefined ? {} : { transferDetails }),
        ...(Option.isSome(transaction) ? { transaction: transaction.value } : {}),
        ...(stored.status === "REJECTED" && stored.rejectionReason !== undefined
          ? { rejectionReason: stored.rejectionReason }
          : {}),
        ...(stored.status === "FAILED" && stored.failureReason !== undefined
          ? { failureReason: stored.failureReason }
          : {}),
        expiresAt: stored.expiresAt,
        createdAt: stored.createdAt,
        updatedAt: stored.updatedAt
      },
      { disableValidation: true }
    )
  })

/** `view` of every action of a page, in order. */
export const viewPage = (
  page: Page.Page<StoredAgentAction>
): Effect.Effect<Page.Page<AgentAction>, StoreFailure.StoreFailure, Requirements> =>
  Effect.map(Effect.forEach(page.data, view), (data) => ({ ...page, data }))

/** The `AGENT_ACTION.PENDING_APPROVAL` event of `action` (its full wire form as data). */
export const pendingApproval = (
  stored: StoredAgentAction,
  action: AgentAction
): Effect.Effect<DomainEvent.DomainEvent, never, Ids.Ids> =>
  DomainEvent.make(stored.platformId, pendingApprovalEvent, encode(action))
