import { Effect, Option } from "effect"
import {
  Currency,
  Page,
  type Platform,
  Quote,
  QuoteRepo,
  Transaction,
  TransactionRepo,
  UmaLookup,
  type Errors
} from "@payrail/core"
import * as Fixtures from "../Fixtures.js"

const uuid = () => globalThis.crypto.randomUUID()

const currency = (code: string): Currency.Currency => Option.getOrThrow(Currency.find(code))

/** A fresh `Quote:<uuid>`. */
export const quoteId = (): Quote.QuoteId => Quote.QuoteId.make(`Quote:${uuid()}`)

/** A fresh `Transaction:<uuid>`. */
export const transactionId = (): Transaction.TransactionId => Transaction.TransactionId.make(`Transaction:${uuid()}`)

/** A fresh account id: the payment repositories do not require the account to exist. */
export const accountId = (): string => `InternalAccount:${uuid()}`

/** A fresh `Posting:<uuid>`. */
export const postingId = (): string => `Posting:${uuid()}`

/** What a quote fixture may set; everything else gets a valid default. */
export interface QuoteOptions {
  readonly customerId?: string | undefined
  readonly status?: Quote.QuoteStatus
  readonly offsetMillis?: number
  readonly source?: Quote.QuoteSource
  readonly destination?: Quote.QuoteDestination
}

/**
 * A quote created at `at(offsetMillis)` (expiring 5 minutes later) with a fresh id, from an account to an account,
 * USD to MXN, and none of the optional fields: no customer unless given, no rate details, no payment instructions.
 */
export const quote = (options: QuoteOptions = {}): Quote.Quote => {
  const offset = options.offsetMillis ?? 0
  return new Quote.Quote({
    id: quoteId(),
    status: options.status ?? "PENDING",
    createdAt: Fixtures.at(offset),
    updatedAt: Fixtures.at(offset),
    expiresAt: Fixtures.at(offset + 300_000),
    source: options.source ?? { sourceType: "ACCOUNT", accountId: accountId() },
    destination: options.destination ?? { destinationType: "ACCOUNT", accountId: `ExternalAccount:${uuid()}` },
    ...(options.customerId === undefined ? {} : { customerId: options.customerId }),
    sendingCurrency: currency("USD"),
    receivingCurrency: currency("MXN"),
    lockedCurrencySide: "SENDING",
    lockedCurrencyAmount: 10_000,
    totalSendingAmount: 10_000,
    totalReceivingAmount: 171_234,
    // Not a short decimal: the stored number must come back bit for bit.
    exchangeRate: 0.058399149234381,
    feesIncluded: 50,
    platformFeesIncluded: 20,
    transactionId: transactionId(),
    paymentInstructions: []
  })
}

/** The payer's instructions in each of the reference's shapes, with nested values and non-ASCII text. */
export const paymentInstructions: ReadonlyArray<Quote.PaymentInstructions> = [
  {
    instructionsNotes: "Include the reference — exactly «PR-7Q2»",
    isPlatformAccount: true,
    accountOrWalletInfo: {
      accountType: "USD_ACCOUNT",
      accountNumber: "000123456789",
      routingNumber: "021000021",
      reference: "PR-7Q2",
      bankName: "Chase Bank",
      beneficiary: { fullName: "Zoë Ångström", address: { country: "US", lines: ["1 Main St", "Suite 2"] } }
    }
  },
  { accountOrWalletInfo: { accountType: "ETHEREUM_WALLET", address: "0x00000000000000000000000000000000000000aa" } },
  { accountOrWalletInfo: { accountType: "LIGHTNING", invoice: "lnbc10u1pexample", expiresInSeconds: 600 } },
  {
    isPlatformAccount: false,
    accountOrWalletInfo: { accountType: "EMBEDDED_WALLET", payloadToSign: '{"requestId":"Request:x","n":[1,2.5,null]}' }
  }
]

/** `quote(options)` with every optional field present: customer, rate details, instructions and descriptions. */
export const fullQuote = (options: QuoteOptions = {}): Quote.Quote =>
  new Quote.Quote({
    ...quote(options),
    customerId: options.customerId ?? `Customer:${uuid()}`,
    paymentInstructions,
    rateDetails: {
      counterpartyMultiplier: 17.1234,
      counterpartyFixedFee: 10,
      gridApiMultiplier: 17.1234567890123,
      gridApiFixedFee: 30,
      gridApiVariableFeeRate: 0.0025,
      gridApiVariableFeeAmount: 25
    },
    description: "Invoice 42 ✓",
    purposeOfPayment: "GOODS_OR_SERVICES",
    remittanceInformation: "INV-42",
    lookupId: `Lookup:${uuid()}`
  })

/** What a transaction fixture may set; everything else gets a valid default. */
export interface TransactionOptions {
  readonly customerId?: string
  readonly platformCustomerId?: string
  readonly status?: Transaction.TransactionStatus
  readonly type?: Transaction.TransactionType
  readonly source?: Transaction.TransactionSource
  readonly destination?: Transaction.TransactionDestination
  readonly reference?: string
  readonly offsetMillis?: number
}

/**
 * A `PENDING` `OUTGOING` debit created at `at(offsetMillis)` with a fresh id, to a fresh account, with only the
 * required fields and those given (no source unless given).
 */
export const transaction = (options: TransactionOptions = {}): Transaction.Transaction => {
  const at = Fixtures.at(options.offsetMillis ?? 0)
  const type = options.type ?? "OUTGOING"
  return new Transaction.Transaction({
    id: transactionId(),
    status: options.status ?? "PENDING",
    type,
    direction: type === "OUTGOING" ? "DEBIT" : "CREDIT",
    ...(options.source === undefined ? {} : { source: options.source }),
    destination: options.destination ?? { destinationType: "ACCOUNT", accountId: accountId() },
    customerId: options.customerId ?? `Customer:${uuid()}`,
    ...(options.platformCustomerId === undefined ? {} : { platformCustomerId: options.platformCustomerId }),
    ...(options.reference === undefined ? {} : { reconciliationInstructions: { reference: options.reference } }),
    createdAt: at,
    updatedAt: at
  })
}

/** `transaction(options)` with every optional field present, a refund included. */
export const fullTransaction = (options: TransactionOptions = {}): Transaction.Transaction => {
  const base = transaction({ status: "FAILED", ...options })
  return new Transaction.Transaction({
    ...base,
    source: options.source ?? {
      sourceType: "ACCOUNT",
      accountId: accountId(),
      currency: "USDC",
      onChainTransaction: { transactionHash: `0x${uuid().replaceAll("-", "")}`, network: "BASE" }
    },
    platformCustomerId: options.platformCustomerId ?? `pc-${uuid()}`,
    sentAmount: { amount: 10_050, currency: currency("USDC") },
    receivedAmount: { amount: 171_234, currency: currency("MXN") },
    fees: 50,
    platformFees: 20,
    exchangeRate: 0.058399149234381,
    quoteId: quoteId(),
    description: "Payout — März ✓",
    paymentRail: "SPEI",
    reconciliationInstructions: { reference: options.reference ?? `REF-${uuid()}` },
    failureReason: "PAYOUT_RETURNED",
    refund: {
      reference: `Refund-${uuid()}`,
      initiatedAt: Fixtures.at((options.offsetMillis ?? 0) + 1_000),
      settledAt: Fixtures.at((options.offsetMillis ?? 0) + 2_001),
      status: "COMPLETED",
      reason: "TRANSACTION_FAILED"
    },
    counterpartyInformation: { fullName: "Zoë Ångström", birthDate: "1990-01-15", ids: [1, "two", { three: null }] },
    receiptDeliveryConfirmedAt: Fixtures.at((options.offsetMillis ?? 0) + 500),
    settledAt: Fixtures.at((options.offsetMillis ?? 0) + 999),
    updatedAt: Fixtures.at((options.offsetMillis ?? 0) + 3_000)
  })
}

/** A stored transaction: the record and its ledger posting, if any. */
export const stored = (
  record: Transaction.Transaction,
  posting: Option.Option<string> = Option.none()
): TransactionRepo.StoredTransaction => ({ transaction: record, postingId: posting })

/** Inserts transactions one after another, without a posting. */
export const insertTransactions = (platformId: Platform.PlatformId, records: ReadonlyArray<Transaction.Transaction>) =>
  Effect.flatMap(TransactionRepo.TransactionRepo, (repo) =>
    Effect.forEach(records, (record) => repo.insert(platformId, stored(record)), { discard: true })
  )

/** Inserts quotes one after another. */
export const insertQuotes = (platformId: Platform.PlatformId, records: ReadonlyArray<Quote.Quote>) =>
  Effect.flatMap(QuoteRepo.QuoteRepo, (repo) =>
    Effect.forEach(records, (record) => repo.insert(platformId, record), { discard: true })
  )

/** The ids of records, in the given order. */
export const idsOf = (records: ReadonlyArray<{ readonly id: string }>): Array<string> =>
  records.map((record) => record.id)

/** Records sorted by `(createdAt, id)`, newest first or oldest first. */
export const sorted = <A extends Page.Cursor>(records: ReadonlyArray<A>, order: "asc" | "desc" = "desc"): Array<A> =>
  [...records].sort((a, b) => (order === "desc" ? 1 : -1) * Page.compareNewestFirst(a, b))

/** The pages of a list, as it answered them: what a client paging with `nextCursor` sees. */
export type Pages<A> = ReadonlyArray<Page.Page<A>>

/**
 * Follows `nextCursor` from the first page until `hasMore` is false (at most `maxPages`), calling `between` after
 * each page: the pages a client sees while others write.
 */
export const allPages = <A, R>(
  list: (page: Page.PageRequest) => Effect.Effect<Page.Page<A>, Errors.StoreFailure, R>,
  limit: number,
  between: (pageNumber: number) => Effect.Effect<void, Errors.StoreFailure, R> = () => Effect.void,
  maxPages = 1_000
): Effect.Effect<Pages<A>, Errors.StoreFailure | Errors.InvalidInput, R> =>
  Effect.gen(function* () {
    const pages: Array<Page.Page<A>> = []
    let after: Option.Option<Page.Cursor> = Option.none()
    while (pages.length < maxPages) {
      const page = yield* list({ limit, after })
      pages.push(page)
      yield* between(pages.length)
      if (page.nextCursor === undefined) break
      after = Option.some(yield* Page.decodeCursor(page.nextCursor))
    }
    return pages
  })

/** A lookup created at `at(offsetMillis)`, expiring 15 minutes later, of `receiver`, with every optional field. */
export const umaLookup = (
  options: { readonly receiver?: UmaLookup.Receiver; readonly offsetMillis?: number; readonly full?: boolean } = {}
): UmaLookup.UmaLookup => {
  const offset = options.offsetMillis ?? 0
  return new UmaLookup.UmaLookup({
    id: UmaLookup.LookupId.make(`Lookup:${uuid()}`),
    receiver: options.receiver ?? { _tag: "UmaAddress", umaAddress: "$success.usd@sandbox.uma.money" },
    ...(options.full === true ? { senderUmaAddress: "$zoë.sender@uma.example", customerId: `Customer:${uuid()}` } : {}),
    supportedCurrencies: [
      // Not short decimals: the stored numbers must come back bit for bit.
      { currency: currency("MXN"), estimatedExchangeRate: 0.058_394_160_583_941_6, min: 1, max: 9_007_199_254_740_991 },
      { currency: currency("USD"), estimatedExchangeRate: 1, min: 100, max: 1_000_000 }
    ],
    requiredPayerDataFields:
      options.full === true
        ? [
            { name: "FULL_NAME", mandatory: true },
            { name: "BIRTH_DATE", mandatory: false }
          ]
        : [],
    createdAt: Fixtures.at(offset),
    expiresAt: Fixtures.at(offset + 900_000)
  })
}
