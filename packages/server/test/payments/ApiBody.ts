/**
 * The fields the server tests read from the API's answers: quotes, transactions, accounts, pages, error bodies,
 * clocks and webhook deliveries.
 */
export interface Body {
  readonly id: string
  readonly status: string
  readonly code: string
  readonly reason: string
  readonly details: Record<string, unknown>
  readonly type: string
  readonly transactionId: string
  readonly totalSendingAmount: number
  readonly totalReceivingAmount: number
  readonly feesIncluded: number
  readonly createdAt: string
  readonly expiresAt: string
  readonly failureReason?: string
  readonly refund?: { readonly status: string; readonly reason: string }
  readonly sendingCurrency: { readonly code: string }
  readonly receivingCurrency: { readonly code: string }
  readonly balance: { readonly amount: number; readonly currency: { readonly code: string } }
  readonly totalBalance: { readonly amount: number }
  readonly exchangeRate: number
  readonly rateDetails?: Record<string, unknown>
  readonly settledAt?: string
  readonly reconciliationInstructions?: { readonly reference?: string }
  readonly paymentInstructions: ReadonlyArray<{
    readonly accountOrWalletInfo: {
      readonly accountType: string
      readonly reference?: string
      readonly invoice?: string
    }
  }>
  readonly umaAddress: string
  readonly webhookSecret: string
  readonly currentTime: string
  readonly offsetSeconds: number
  readonly attempts: number
  readonly nextAttemptAt?: string
  readonly data: ReadonlyArray<Body>
  readonly hasMore: boolean
  readonly nextCursor?: string
  readonly totalCount?: number
}
