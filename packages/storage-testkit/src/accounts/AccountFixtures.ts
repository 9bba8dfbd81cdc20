import { Effect, Option, Schema } from "effect"
import {
  AuthMethod,
  Customer,
  ExternalAccount,
  ExternalAccountInfo,
  ExternalAccountRepo,
  type ExternalAccountStatus,
  InternalAccount,
  type Platform
} from "@payrail/core"
import * as Fixtures from "../Fixtures.js"

const uuid = () => globalThis.crypto.randomUUID()

const decodeInfo = Schema.decodeUnknownSync(ExternalAccountInfo.ExternalAccountInfo)

/** A fresh customer id (the repositories of accounts do not require the customer row to exist). */
export const customerId = (): Customer.CustomerId => Customer.CustomerId.make(`Customer:${uuid()}`)

/**
 * A valid `USD_ACCOUNT` at routing number 021000021 with an individual beneficiary and its address. The account
 * number (4-17 digits) tells accounts apart; it defaults to a random one.
 */
export const usdAccountInfo = (accountNumber = String(Number.parseInt(uuid().slice(0, 8), 16)).padStart(10, "0")) =>
  decodeInfo({
    accountType: "USD_ACCOUNT",
    accountNumber,
    routingNumber: "021000021",
    bankAccountType: "CHECKING",
    bankName: "Chase Bank",
    beneficiary: {
      beneficiaryType: "INDIVIDUAL",
      fullName: "Ada Lovelace",
      birthDate: "1990-01-15",
      nationality: "US",
      address: { line1: "123 Main Street", city: "San Francisco", state: "CA", postalCode: "94105", country: "US" }
    }
  })

/** A valid self-custody `ETHEREUM_WALLET` (lower-case address, so no EIP-55 checksum applies); random by default. */
export const evmWalletInfo = (address = `0x${uuid().replaceAll("-", "")}${uuid().slice(0, 8)}`) =>
  decodeInfo({ accountType: "ETHEREUM_WALLET", address })

/** What an external account fixture may set; everything else gets a valid default. */
export interface ExternalAccountOptions {
  readonly customerId?: Customer.CustomerId | undefined
  readonly accountInfo?: ExternalAccountInfo.ExternalAccountInfo
  readonly currency?: string
  readonly status?: ExternalAccountStatus.ExternalAccountStatus
  readonly defaultUmaDepositAccount?: boolean
  readonly offsetMillis?: number
}

/**
 * An `ACTIVE` external account with a fresh id created at `at(offsetMillis)`: a USD bank account by default,
 * owned by `customerId` (or by the platform when absent), with name verification results.
 */
export const externalAccount = (options: ExternalAccountOptions = {}): ExternalAccount.ExternalAccount => {
  const createdAt = Fixtures.at(options.offsetMillis ?? 0)
  const accountInfo = options.accountInfo ?? usdAccountInfo()
  return new ExternalAccount.ExternalAccount({
    id: ExternalAccount.ExternalAccountId.make(`ExternalAccount:${uuid()}`),
    ...(options.customerId === undefined ? {} : { customerId: options.customerId }),
    status: options.status ?? "ACTIVE",
    platformAccountId: `ext-${uuid()}`,
    ownershipType: "FIRST_PARTY",
    currency: options.currency ?? (accountInfo.accountType === "USD_ACCOUNT" ? "USD" : "USDC"),
    defaultUmaDepositAccount: options.defaultUmaDepositAccount ?? false,
    ...(accountInfo.accountType === "USD_ACCOUNT"
      ? { beneficiaryVerificationStatus: "MATCHED" as const, beneficiaryVerifiedData: { fullName: "Ada Lovelace" } }
      : {}),
    accountInfo,
    createdAt,
    updatedAt: createdAt
  })
}

/** What an internal account fixture may set. */
export interface InternalAccountOptions {
  readonly customerId?: Customer.CustomerId | undefined
  readonly type?: InternalAccount.InternalAccountType
  readonly currency?: string
  readonly offsetMillis?: number
}

/** An `ACTIVE` internal account with a fresh id created at `at(offsetMillis)`; platform-owned without `customerId`. */
export const internalAccount = (options: InternalAccountOptions = {}): InternalAccount.InternalAccount => {
  const createdAt = Fixtures.at(options.offsetMillis ?? 0)
  return new InternalAccount.InternalAccount({
    id: InternalAccount.InternalAccountId.make(`InternalAccount:${uuid()}`),
    ...(options.customerId === undefined ? {} : { customerId: options.customerId }),
    type: options.type ?? "INTERNAL_FIAT",
    currency: options.currency ?? "USD",
    status: "ACTIVE",
    ...(options.type === "EMBEDDED_WALLET" ? { privateEnabled: true } : {}),
    createdAt,
    updatedAt: createdAt
  })
}

/** A credential of `accountId` created at `at(offsetMillis)`. */
export const authMethod = (
  accountId: InternalAccount.InternalAccountId,
  offsetMillis: number,
  type: AuthMethod.AuthMethodType = "EMAIL_OTP"
): AuthMethod.AuthMethod =>
  new AuthMethod.AuthMethod({
    id: AuthMethod.AuthMethodId.make(`AuthMethod:${uuid()}`),
    accountId,
    type,
    ...(type === "PASSKEY" ? { credentialId: `cred-${uuid()}` } : {}),
    nickname: type === "PASSKEY" ? "Laptop ✓" : "ada@example.com",
    createdAt: Fixtures.at(offsetMillis),
    updatedAt: Fixtures.at(offsetMillis)
  })

/** Inserts the account under its own unique key, as the service does. */
export const insert = (platformId: Platform.PlatformId, account: ExternalAccount.ExternalAccount) =>
  Effect.flatMap(ExternalAccountRepo.ExternalAccountRepo, (repo) =>
    repo.insert(platformId, account, ExternalAccountInfo.uniqueKeyOf(account.accountInfo))
  )

/** `{ids, totalCount}` of the first page (up to 100) of `filter`. */
export const listed = (platformId: Platform.PlatformId, filter: ExternalAccountRepo.ExternalAccountFilter) =>
  Effect.flatMap(ExternalAccountRepo.ExternalAccountRepo, (repo) =>
    Effect.map(repo.list(platformId, filter, { limit: 100, after: Option.none() }), (page) => ({
      ids: page.data.map((account) => account.id),
      totalCount: page.totalCount
    }))
  )
