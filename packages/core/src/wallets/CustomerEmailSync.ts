import { Context, DateTime, Effect, Layer, Option } from "effect"
import { type AuthMethod, AuthMethodRepo, type InternalAccount, InternalAccountRepo } from "../accounts/index.js"
import {
  type Customer,
  type CustomerErrors,
  CustomerRepo,
  type CustomerRequest,
  Customers,
  CustomerUpdate,
  EndUserTerms
} from "../customers/index.js"
import { type InvalidInput, Page, type StoreFailure, UnitOfWork } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import { isRetry, type RetryRefused, SignedRetry, type WalletHeaders } from "./SignedRetry.js"
import { EmailOtpCredentialSetChanged, EmailOtpEmailAlreadyExists } from "./WalletErrors.js"
import * as WalletStep from "./WalletStep.js"

type Failure =
  | RetryRefused
  | EmailOtpEmailAlreadyExists
  | EmailOtpCredentialSetChanged
  | CustomerErrors.CustomerNotFound
  | CustomerErrors.CustomerDeleted
  | CustomerErrors.EndUserTermsVersionNotFound
  | InvalidInput.InvalidInput
  | StoreFailure.StoreFailure

/** The `EMAIL_OTP` credentials of one embedded wallet of a customer. */
interface TiedWallet {
  readonly account: InternalAccount.InternalAccount
  readonly credentials: ReadonlyArray<AuthMethod.AuthMethod>
}

const everyWallet: Page.PageRequest = { limit: Page.maxLimit, after: Option.none() }

/**
 * `PATCH /customers/{id}` with the customer's `EMAIL_OTP` credentials kept on its email. A change of `email` on a
 * customer whose embedded wallet has an `EMAIL_OTP` credential goes through the signed retry (operation
 * `UPDATE_CUSTOMER_EMAIL`, signed by an active session of that wallet): the first leg validates the request and
 * answers a challenge; the retry applies the update exactly as `Customers.update` does (validation, versioning,
 * `CUSTOMER.UPDATED`) and renames every such credential to the new email, consuming its request, in one unit of
 * work: all of it or nothing. Any other update is `Customers.update` itself (wallet headers ignored).
 * An email another customer's `EMAIL_OTP` credential on the platform already has is refused (409) on both legs;
 * a credential revoked between the check and the write refuses the retry (409), nothing changed.
 */
export class CustomerEmailSync extends Context.Tag("@payrail/core/CustomerEmailSync")<
  CustomerEmailSync,
  {
    readonly update: (
      platform: Platform.Platform,
      id: Customer.CustomerId,
      request: CustomerRequest.UpdateCustomerRequest,
      headers: WalletHeaders
    ) => Effect.Effect<WalletStep.WalletStep<Customer.Customer>, Failure>
  }
>() {}

export const layer = Layer.effect(
  CustomerEmailSync,
  Effect.gen(function* () {
    const customers = yield* Customers.Customers
    const terms = yield* EndUserTerms.Current
    const customerRepo = yield* CustomerRepo.CustomerRepo
    const accounts = yield* InternalAccountRepo.InternalAccountRepo
    const methods = yield* AuthMethodRepo.AuthMethodRepo
    const retry = yield* SignedRetry
    const unitOfWork = yield* UnitOfWork.UnitOfWork

    // The customer's embedded wallets that have an EMAIL_OTP credential, oldest account first.
    const tiedWallets = (platform: Platform.Platform, customerId: Customer.CustomerId) =>
      Effect.gen(function* () {
        const wallets = yield* accounts.list(
          platform.id,
          { owner: "customers", customerId, type: "EMBEDDED_WALLET" },
          everyWallet
        )
        const tied = yield* Effect.forEach([...wallets.data].reverse(), (account) =>
          Effect.map(methods.listByAccount(platform.id, account.id), (found): TiedWallet => ({
            account,
            credentials: found.filter((method) => method.type === "EMAIL_OTP")
          }))
        )
        return tied.filter((wallet) => wallet.credentials.length > 0)
      })

    // Platform-wide: no other customer's wallet may have an EMAIL_OTP credential on `email`.
    const checkUnused = (platform: Platform.Platform, customerId: Customer.CustomerId, email: string) =>
      Effect.gen(function* () {
        const holders = yield* customerRepo.list(platform.id, { email }, everyWallet)
        for (const holder of holders.data.filter((customer) => customer.id !== customerId)) {
          const wallets = yield* tiedWallets(platform, holder.id)
          if (wallets.some((wallet) => wallet.credentials.some((method) => method.nickname === email))) {
            return yield* EmailOtpEmailAlreadyExists.of()
          }
        }
      })

    const update = Effect.fn("CustomerEmailSync.update")(function* (
      platform: Platform.Platform,
      id: Customer.CustomerId,
      request: CustomerRequest.UpdateCustomerRequest,
      headers: WalletHeaders
    ) {
      yield* CustomerUpdate.checkOneContact(request)
      const plain = Effect.map(customers.update(platform, id, request), (value) => WalletStep.Done({ value }))
      const email = request.email
      if (email === undefined) return yield* plain
      const stored = yield* customers.requireLive(platform, id)
      if (stored.email === email) return yield* plain
      const tied = yield* tiedWallets(platform, id)
      const [signer] = tied
      if (signer === undefined) return yield* plain
      // The first leg refuses what the update would refuse, so a challenge is only issued for an update that applies.
      const now = yield* DateTime.now
      yield* CustomerUpdate.checkPastDates(request, CustomerUpdate.today(now))
      yield* CustomerUpdate.apply(stored, request, now)
      yield* EndUserTerms.checkVersion(request.endUserTermsConsent, terms)
      yield* checkUnused(platform, id, email)
      const action = {
        accountId: signer.account.id,
        operation: "UPDATE_CUSTOMER_EMAIL",
        targetId: id,
        body: request
      } as const
      if (!isRetry(headers)) return WalletStep.Challenge({ request: yield* retry.issue(platform.id, action) })
      const authorized = yield* retry.authorize(platform.id, action, headers)
      const updated = yield* unitOfWork.transaction(
        Effect.gen(function* () {
          yield* retry.consume(platform.id, authorized.request)
          const customer = yield* customers.update(platform, id, request)
          const at = yield* DateTime.now
          for (const method of tied.flatMap((wallet) => wallet.credentials)) {
            if (!(yield* methods.rename(platform.id, method.id, email, at))) {
              return yield* EmailOtpCredentialSetChanged.of()
            }
          }
          return customer
        })
      )
      return WalletStep.Done({ value: updated })
    })

    return CustomerEmailSync.of({ update })
  })
)
