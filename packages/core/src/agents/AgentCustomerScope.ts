import { Context, Effect, Layer, Option } from "effect"
import {
  AccountErrors,
  ExternalAccounts,
  type ExternalAccount,
  type ExternalAccountRequest,
  type InternalAccount,
  InternalAccounts
} from "../accounts/index.js"
import { TransactionFeed } from "../cards/index.js"
import { CustomerErrors } from "../customers/index.js"
import type { Page, StoreFailure } from "../kernel/index.js"
import { PaymentErrors } from "../payments/index.js"
import type { AgentPermissionDenied } from "./AgentErrors.js"
import { type AgentCaller, requirePermission } from "./AgentCaller.js"

/** Filters of `GET /agents/me/external-accounts`. */
export interface AgentExternalAccountFilter {
  readonly currency?: string | undefined
}

/** Filters of `GET /agents/me/internal-accounts`. */
export interface AgentInternalAccountFilter {
  readonly currency?: string | undefined
  readonly type?: InternalAccount.InternalAccountType | undefined
}

/**
 * Filters of `GET /agents/me/transactions`: those of `GET /transactions` without the customer ones (card
 * transactions of the customer's cards included).
 */
export type AgentTransactionFilter = Omit<TransactionFeed.FeedFilter, "customerId" | "platformCustomerId">

type CreateExternalAccountError = Effect.Effect.Error<ReturnType<ExternalAccounts.ExternalAccounts["Type"]["create"]>>

/**
 * What an agent sees of its customer: the customer's external accounts, internal accounts and transactions (its
 * card transactions among them), and nothing else. Every operation acts for `caller.agent.customerId` on the caller's platform:
 * - another customer's (or the platform's own) account or transaction is 404, exactly as an unknown id;
 * - creating an external account with another customer's `customerId` is 404 `USER_NOT_FOUND` (as for an unknown
 *   customer: the agent never learns which ids exist); without `customerId` the agent's customer is inferred;
 * - a permission the agent's policy lacks is 403 `FORBIDDEN` (`details.rule = "requires_permission"`), checked
 *   before any id is looked at: external accounts need `MANAGE_EXTERNAL_ACCOUNTS`, transactions
 *   `VIEW_TRANSACTIONS`; internal accounts need none.
 */
export class AgentCustomerScope extends Context.Tag("@payrail/core/AgentCustomerScope")<
  AgentCustomerScope,
  {
    readonly listExternalAccounts: (
      caller: AgentCaller,
      filter: AgentExternalAccountFilter,
      page: Page.PageRequest
    ) => Effect.Effect<Page.Page<ExternalAccount.ExternalAccount>, AgentPermissionDenied | StoreFailure.StoreFailure>
    readonly createExternalAccount: (
      caller: AgentCaller,
      request: ExternalAccountRequest.CreateExternalAccountRequest
    ) => Effect.Effect<ExternalAccount.ExternalAccount, AgentPermissionDenied | CreateExternalAccountError>
    readonly getExternalAccount: (
      caller: AgentCaller,
      id: ExternalAccount.ExternalAccountId
    ) => Effect.Effect<
      ExternalAccount.ExternalAccount,
      AgentPermissionDenied | AccountErrors.ExternalAccountNotFound | StoreFailure.StoreFailure
    >
    readonly deleteExternalAccount: (
      caller: AgentCaller,
      id: ExternalAccount.ExternalAccountId
    ) => Effect.Effect<void, AgentPermissionDenied | AccountErrors.ExternalAccountNotFound | StoreFailure.StoreFailure>
    readonly listInternalAccounts: (
      caller: AgentCaller,
      filter: AgentInternalAccountFilter,
      page: Page.PageRequest
    ) => Effect.Effect<Page.Page<InternalAccount.InternalAccountView>, StoreFailure.StoreFailure>
    readonly listTransactions: (
      caller: AgentCaller,
      filter: AgentTransactionFilter,
      page: Page.PageRequest
    ) => Effect.Effect<Page.Page<TransactionFeed.FeedTransaction>, AgentPermissionDenied | StoreFailure.StoreFailure>
    readonly getTransaction: (
      caller: AgentCaller,
      id: TransactionFeed.FeedTransactionId
    ) => Effect.Effect<
      TransactionFeed.FeedTransaction,
      AgentPermissionDenied | PaymentErrors.TransactionNotFound | StoreFailure.StoreFailure
    >
  }
>() {}

/**
 * `AgentCustomerScope` over the platform's own account and transaction services: it adds the customer filter and the
 * ownership check to their answers and changes nothing they store.
 */
export const layer: Layer.Layer<
  AgentCustomerScope,
  never,
  ExternalAccounts.ExternalAccounts | InternalAccounts.InternalAccounts | TransactionFeed.TransactionFeed
> = Layer.effect(
  AgentCustomerScope,
  Effect.gen(function* () {
    const external = yield* ExternalAccounts.ExternalAccounts
    const internal = yield* InternalAccounts.InternalAccounts
    const transactions = yield* TransactionFeed.TransactionFeed

    // The customer's external account, or 404 as for an unknown id.
    const ownExternal = Effect.fn("AgentCustomerScope.ownExternalAccount")(function* (
      caller: AgentCaller,
      id: ExternalAccount.ExternalAccountId
    ) {
      yield* requirePermission(caller, "MANAGE_EXTERNAL_ACCOUNTS")
      const account = yield* external.get(caller.platform, id)
      if (account.customerId !== caller.agent.customerId) {
        return yield* Effect.fail(AccountErrors.ExternalAccountNotFound.of(id))
      }
      return account
    })

    return {
      listExternalAccounts: Effect.fn("AgentCustomerScope.listExternalAccounts")(function* (
        caller: AgentCaller,
        filter: AgentExternalAccountFilter,
        page: Page.PageRequest
      ) {
        yield* requirePermission(caller, "MANAGE_EXTERNAL_ACCOUNTS")
        return yield* external.list(
          caller.platform,
          { owner: "customers", customerId: caller.agent.customerId, currency: filter.currency },
          page
        )
      }),
      createExternalAccount: Effect.fn("AgentCustomerScope.createExternalAccount")(function* (
        caller: AgentCaller,
        request: ExternalAccountRequest.CreateExternalAccountRequest
      ) {
        yield* requirePermission(caller, "MANAGE_EXTERNAL_ACCOUNTS")
        const { customerId, ...rest } = request
        if (customerId !== undefined && customerId !== caller.agent.customerId) {
          return yield* Effect.fail(CustomerErrors.CustomerNotFound.of(customerId))
        }
        return yield* external.create(caller.platform, Option.some(caller.agent.customerId), rest)
      }),
      getExternalAccount: ownExternal,
      deleteExternalAccount: Effect.fn("AgentCustomerScope.deleteExternalAccount")(function* (
        caller: AgentCaller,
        id: ExternalAccount.ExternalAccountId
      ) {
        yield* ownExternal(caller, id)
        yield* external.delete(caller.platform, id)
      }),
      listInternalAccounts: Effect.fn("AgentCustomerScope.listInternalAccounts")(function* (
        caller: AgentCaller,
        filter: AgentInternalAccountFilter,
        page: Page.PageRequest
      ) {
        return yield* internal.list(
          caller.platform,
          { owner: "customers", customerId: caller.agent.customerId, type: filter.type, currency: filter.currency },
          page
        )
      }),
      listTransactions: Effect.fn("AgentCustomerScope.listTransactions")(function* (
        caller: AgentCaller,
        filter: AgentTransactionFilter,
        page: Page.PageRequest
      ) {
        yield* requirePermission(caller, "VIEW_TRANSACTIONS")
        return yield* transactions.list(caller.platform, { ...filter, customerId: caller.agent.customerId }, page)
      }),
      getTransaction: Effect.fn("AgentCustomerScope.getTransaction")(function* (
        caller: AgentCaller,
        id: TransactionFeed.FeedTransactionId
      ) {
        yield* requirePermission(caller, "VIEW_TRANSACTIONS")
        const transaction = yield* transactions.get(caller.platform, id)
        if (transaction.customerId !== caller.agent.customerId) {
          return yield* Effect.fail(PaymentErrors.TransactionNotFound.of(id))
        }
        return transaction
      })
    }
  })
)
