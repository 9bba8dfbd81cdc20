import type * as SqlClient from "@effect/sql/SqlClient"
import { expect, layer } from "@effect/vitest"
import {
  AgentActionRepo,
  AgentRepo,
  AgentUsageRepo,
  ApiTokenRepo,
  AuthMethodRepo,
  AuthSessionRepo,
  Card,
  CardRepo,
  CardReveal,
  CardTransaction,
  CardTransactionRepo,
  type Customer,
  CustomerRepo,
  DomainEvent,
  ExternalAccount,
  ExternalAccountRepo,
  InternalAccountRepo,
  Ledger,
  OtpChallengeRepo,
  Outbox,
  PlatformRepo,
  Quote,
  QuoteRepo,
  SignedRequestRepo,
  type Storage,
  Transaction,
  TransactionRepo,
  UmaLookupRepo,
  UnitOfWork,
  WalletSecretRepo,
  BeneficialOwnerRepo,
  DocumentRepo,
  InvitationRepo
} from "@payrail/core"
import {
  AccountFixtures,
  AgentFixtures,
  CardFixtures,
  Fixtures,
  LedgerFixtures,
  PaymentFixtures,
  VerificationFixtures,
  WalletFixtures,
  InvitationRepoSuite
} from "@payrail/storage-testkit"
import { Effect, type Layer, Option } from "effect"
import * as Statements from "./fixtures/Statements.js"

const firstPage = { limit: 20, after: Option.none() }

// Runs operations and records how many statements each sent, by name.
const counter = () => {
  const counts: Record<string, number> = {}
  const count = <A, E, R>(name: string, effect: Effect.Effect<A, E, R>) =>
    Effect.map(Statements.executed(effect), ([result, statements]) => {
      counts[name] = statements.length
      return result
    })
  return { count, counts }
}

/**
 * How many statements each repository operation sends: the request path's budget. An operation that needs one
 * more round trip fails here, whatever the reason. Registered once per backend.
 */
export const register = (backend: string, storage: Layer.Layer<Storage.Services | SqlClient.SqlClient, unknown>) =>
  layer(storage, { timeout: "120 seconds", excludeTestServices: true })(
    `storage-postgres statements on ${backend}`,
    (it) => {
      it.effect("runs each repository operation in its fixed number of statements", () =>
        Effect.gen(function* () {
          const { count, counts } = counter()

          const platforms = yield* PlatformRepo.PlatformRepo
          const platform = Fixtures.platform()
          yield* count("platforms.insert", platforms.insert(platform))
          yield* count("platforms.findById", platforms.findById(platform.id))
          yield* count("platforms.list", platforms.list)

          const tokens = yield* ApiTokenRepo.ApiTokenRepo
          const token = Fixtures.apiToken(platform.id)
          yield* count("apiTokens.insert", tokens.insert(token))
          yield* count("apiTokens.findByClientId", tokens.findByClientId(token.clientId))
          yield* count("apiTokens.findWithPlatform", tokens.findWithPlatform(token.clientId))
          yield* count("apiTokens.listByPlatform", tokens.listByPlatform(platform.id))

          const customers = yield* CustomerRepo.CustomerRepo
          const customer = Fixtures.individual()
          yield* count("customers.insert", customers.insert(platform.id, customer, Option.some("123-45-6789")))
          const stored = yield* count("customers.findById", customers.findById(platform.id, customer.id))
          const next = { ...Option.getOrThrow(stored), version: 2 }
          yield* count("customers.update", customers.update(platform.id, next, 1))
          yield* count("customers.list", customers.list(platform.id, { customerType: "INDIVIDUAL" }, firstPage))
          yield* count("customers.findByUmaAddress", customers.findByUmaAddress(platform.id, "$ada@pay.example"))

          const outbox = yield* Outbox.Outbox
          const event = new DomainEvent.DomainEvent({
            id: DomainEvent.EventId.make(`Webhook:${globalThis.crypto.randomUUID()}`),
            platformId: platform.id,
            type: "CUSTOMER.CREATED",
            timestamp: Fixtures.at(0),
            data: {}
          })
          yield* count("outbox.append", outbox.append(event))
          const another = (type: string) =>
            new DomainEvent.DomainEvent({
              ...event,
              id: DomainEvent.EventId.make(`Webhook:${globalThis.crypto.randomUUID()}`),
              type
            })
          yield* count(
            "outbox.appendAll",
            outbox.appendAll([another("CUSTOMER.CREATED"), another("CUSTOMER.KYC_APPROVED")])
          )
          yield* count("outbox.appendAll of none", outbox.appendAll([]))
          yield* count("outbox.pending", outbox.pending(1))

          const ledger = yield* Ledger.Ledger
          const book = yield* LedgerFixtures.openBook({ usd: 2 })
          const [from = "", to = ""] = book.usd
          const fresh = LedgerFixtures.guarded(book.platformId)
          yield* count("ledger.openAccount", ledger.openAccount(fresh))
          yield* count("ledger.openAccount again", ledger.openAccount(fresh))
          const several = [LedgerFixtures.guarded(book.platformId), LedgerFixtures.guarded(book.platformId, "EUR")]
          yield* count("ledger.openAccounts", ledger.openAccounts(several))
          yield* count("ledger.openAccounts again", ledger.openAccounts([...several, fresh]))
          yield* count("ledger.openAccounts of none", ledger.openAccounts([]))
          yield* count("ledger.post", ledger.post(LedgerFixtures.deposit(book.platformId, from, 100n)))
          const reserve = () =>
            ledger.post(LedgerFixtures.movement(book.platformId, from, to, 10n, { status: "pending" }))
          const confirmed = yield* reserve()
          yield* count("ledger.confirm", ledger.confirm(book.platformId, confirmed.postingId))
          const released = yield* reserve()
          yield* count("ledger.release", ledger.release(book.platformId, released.postingId))
          yield* count("ledger.balance", ledger.balance(book.platformId, from))
          const clearing = LedgerFixtures.system(book.platformId, "RAIL_CLEARING")
          yield* count("ledger.balance of a system account", ledger.balance(book.platformId, clearing))
          yield* count("ledger.reconcile", ledger.reconcile(book.platformId, from))
          yield* count("ledger.postedTotals", ledger.postedTotals(book.platformId))

          const internalAccounts = yield* InternalAccountRepo.InternalAccountRepo
          const wallet = AccountFixtures.internalAccount({ customerId: customer.id, type: "EMBEDDED_WALLET" })
          yield* count("internalAccounts.insert", internalAccounts.insert(platform.id, wallet))
          const fiat = AccountFixtures.internalAccount({ customerId: customer.id })
          const crypto = AccountFixtures.internalAccount({ customerId: customer.id, currency: "BTC" })
          yield* count("internalAccounts.insertAll", internalAccounts.insertAll(platform.id, [fiat, crypto]))
          yield* count("internalAccounts.insertAll of none", internalAccounts.insertAll(platform.id, []))
          yield* count("internalAccounts.findById", internalAccounts.findById(platform.id, wallet.id))
          yield* count("internalAccounts.list", internalAccounts.list(platform.id, { owner: "customers" }, firstPage))
          yield* count(
            "internalAccounts.setPrivateEnabled",
            internalAccounts.setPrivateEnabled(platform.id, wallet.id, true, Fixtures.at(1))
          )

          const authMethods = yield* AuthMethodRepo.AuthMethodRepo
          yield* count("authMethods.insert", authMethods.insert(platform.id, AccountFixtures.authMethod(wallet.id, 0)))
          yield* count("authMethods.listByAccount", authMethods.listByAccount(platform.id, wallet.id))
          const credentials = [
            AccountFixtures.authMethod(wallet.id, 1, "SMS_OTP"),
            AccountFixtures.authMethod(wallet.id, 2, "PASSKEY")
          ]
          yield* count("authMethods.insertAll", authMethods.insertAll(platform.id, credentials))
          yield* count("authMethods.insertAll of none", authMethods.insertAll(platform.id, []))
          const passkey = WalletFixtures.passkey(wallet.id)
          yield* count("authMethods.insertUnique", authMethods.insertUnique(platform.id, passkey))
          yield* count("authMethods.findById", authMethods.findById(platform.id, passkey.id))
          yield* count(
            "authMethods.advancePasskeyCounter",
            authMethods.advancePasskeyCounter(platform.id, passkey.id, 0, 1, Fixtures.at(1))
          )
          yield* count("authMethods.rename", authMethods.rename(platform.id, passkey.id, "Phone", Fixtures.at(1)))
          yield* count("authMethods.deleteUnlessLast", authMethods.deleteUnlessLast(platform.id, wallet.id, passkey.id))

          const sessions = yield* AuthSessionRepo.AuthSessionRepo
          const session = WalletFixtures.session({ accountId: wallet.id })
          yield* count("authSessions.insert", sessions.insert(platform.id, session))
          yield* count("authSessions.findById", sessions.findById(platform.id, session.id))
          yield* count("authSessions.listActive", sessions.listActive(platform.id, wallet.id, Fixtures.at(0)))
          yield* count(
            "authSessions.listActiveBeside",
            sessions.listActiveBeside(platform.id, session.id, Fixtures.at(0))
          )
          yield* count("authSessions.revoke", sessions.revoke(platform.id, session.id, Fixtures.at(1)))
          yield* count(
            "authSessions.revokeIssuedBy",
            sessions.revokeIssuedBy(platform.id, session.authMethodId, Fixtures.at(1))
          )

          const signedRequests = yield* SignedRequestRepo.SignedRequestRepo
          const signed = WalletFixtures.signedRequest({ accountId: wallet.id })
          yield* count("signedRequests.insert", signedRequests.insert(platform.id, signed))
          yield* count("signedRequests.findById", signedRequests.findById(platform.id, signed.id))
          yield* count(
            "authSessions.revokeConsuming",
            sessions.revokeConsuming(platform.id, session.id, signed.id, Fixtures.at(1))
          )
          yield* count("signedRequests.consume", signedRequests.consume(platform.id, signed.id, Fixtures.at(1)))
          yield* count("signedRequests.purgeExpired", signedRequests.purgeExpired(Fixtures.at(0), 100))

          const challenges = yield* OtpChallengeRepo.OtpChallengeRepo
          const challenge = WalletFixtures.otpChallenge(passkey.id)
          yield* count("otpChallenges.put", challenges.put(platform.id, challenge))
          yield* count("otpChallenges.find", challenges.find(platform.id, passkey.id))
          yield* count(
            "otpChallenges.recordFailure",
            challenges.recordFailure(platform.id, passkey.id, challenge.issuedAt)
          )
          yield* count("otpChallenges.take", challenges.take(platform.id, passkey.id, challenge.issuedAt))

          const secrets = yield* WalletSecretRepo.WalletSecretRepo
          yield* count("walletSecrets.keep", secrets.keep(platform.id, wallet.id, "sealed", Fixtures.at(0)))

          const documents = yield* DocumentRepo.DocumentRepo
          const document = VerificationFixtures.document(customer.id)
          const documentId = document.document.id
          yield* count("documents.insert", documents.insert(platform.id, document))
          yield* count("documents.findById", documents.findById(platform.id, documentId))
          yield* count("documents.list", documents.list(platform.id, { documentHolder: customer.id }, firstPage))
          yield* count("documents.listByHolders", documents.listByHolders(platform.id, [customer.id]))
          yield* count("documents.listByHolders of none", documents.listByHolders(platform.id, []))
          yield* count("documents.replace", documents.replace(platform.id, { ...document, version: 2 }, 1))
          yield* count("documents.markSubmitted", documents.markSubmitted(platform.id, [documentId], Fixtures.at(1)))
          yield* count("documents.markSubmitted of none", documents.markSubmitted(platform.id, [], Fixtures.at(1)))
          yield* count("documents.delete", documents.delete(platform.id, documentId))

          const owners = yield* BeneficialOwnerRepo.BeneficialOwnerRepo
          const owner = VerificationFixtures.owner(customer.id)
          yield* count("beneficialOwners.insert", owners.insert(platform.id, owner))
          yield* count("beneficialOwners.findById", owners.findById(platform.id, owner.owner.id))
          yield* count("beneficialOwners.list", owners.list(platform.id, customer.id, firstPage))
          yield* count("beneficialOwners.listAll", owners.listAll(platform.id, customer.id))
          yield* count("beneficialOwners.update", owners.update(platform.id, { ...owner, version: 2 }, 1))
          yield* count(
            "beneficialOwners.resolveKycStatus",
            owners.resolveKycStatus(platform.id, owner.owner.id, "PENDING", Fixtures.at(1))
          )

          const externalAccounts = yield* ExternalAccountRepo.ExternalAccountRepo
          const account = AccountFixtures.externalAccount({ customerId: customer.id })
          const defaultAccount = AccountFixtures.externalAccount({
            customerId: customer.id,
            defaultUmaDepositAccount: true
          })
          yield* count("externalAccounts.insert", AccountFixtures.insert(platform.id, account))
          yield* count("externalAccounts.insert a default", AccountFixtures.insert(platform.id, defaultAccount))
          yield* count("externalAccounts.findById", externalAccounts.findById(platform.id, account.id))
          yield* count(
            "externalAccounts.list",
            externalAccounts.list(platform.id, { owner: "customers", customerId: customer.id }, firstPage)
          )
          yield* count(
            "externalAccounts.list matching nothing",
            externalAccounts.list(platform.id, { owner: "platform", customerId: customer.id }, firstPage)
          )
          const verified = new ExternalAccount.ExternalAccount({ ...account, updatedAt: Fixtures.at(1) })
          yield* count(
            "externalAccounts.transition",
            externalAccounts.transition(platform.id, account.id, "ACTIVE", verified)
          )
          yield* count("externalAccounts.delete", externalAccounts.delete(platform.id, account.id))

          const quotes = yield* QuoteRepo.QuoteRepo
          const quote = PaymentFixtures.quote({ customerId: customer.id })
          yield* count("quotes.insert", quotes.insert(platform.id, quote))
          yield* count("quotes.findById", quotes.findById(platform.id, quote.id))
          yield* count("quotes.list", quotes.list(platform.id, { customerId: customer.id }, firstPage))
          const executing = new Quote.Quote({ ...quote, status: "PROCESSING" })
          yield* count("quotes.transition", quotes.transition(platform.id, quote.id, "PENDING", executing))

          const lookups = yield* UmaLookupRepo.UmaLookupRepo
          const lookup = PaymentFixtures.umaLookup({ full: true })
          yield* count("umaLookups.insert", lookups.insert(platform.id, lookup))
          yield* count("umaLookups.findById", lookups.findById(platform.id, lookup.id))

          const transactions = yield* TransactionRepo.TransactionRepo
          const payment = PaymentFixtures.transaction({
            customerId: customer.id,
            source: { sourceType: "ACCOUNT", accountId: fiat.id }
          })
          yield* count("transactions.insert", transactions.insert(platform.id, PaymentFixtures.stored(payment)))
          yield* count("transactions.findById", transactions.findById(platform.id, payment.id))
          yield* count(
            "transactions.list",
            transactions.list(platform.id, { customerId: customer.id, sortOrder: "desc" }, firstPage)
          )
          yield* count(
            "transactions.list by account",
            transactions.list(platform.id, { accountIdentifier: fiat.id, sortOrder: "asc" }, firstPage)
          )
          yield* count(
            "transactions.list by a text no row holds",
            transactions.list(platform.id, { reference: "\u0000", sortOrder: "desc" }, firstPage)
          )
          const funded = PaymentFixtures.stored(
            new Transaction.Transaction({ ...payment, status: "PROCESSING" }),
            Option.some(PaymentFixtures.postingId())
          )
          yield* count("transactions.transition", transactions.transition(platform.id, payment.id, "PENDING", funded))
          yield* count(
            "transactions.advance",
            transactions.advance(platform.id, payment.id, "PROCESSING", {
              status: "COMPLETED",
              updatedAt: Fixtures.at(1_000),
              settledAt: Fixtures.at(1_000),
              postingId: funded.postingId
            })
          )

          const unitOfWork = yield* UnitOfWork.UnitOfWork
          yield* count("unitOfWork.transaction of nothing", unitOfWork.transaction(Effect.void))

          expect(counts).toEqual({
            "platforms.insert": 1,
            "platforms.findById": 1,
            "platforms.list": 1,
            "apiTokens.insert": 1,
            "apiTokens.findByClientId": 1,
            "apiTokens.findWithPlatform": 1,
            "apiTokens.listByPlatform": 1,
            "customers.insert": 1,
            "customers.findById": 1,
            "customers.update": 1,
            "customers.list": 2,
            "customers.findByUmaAddress": 1,
            "outbox.append": 1,
            "outbox.appendAll": 1,
            "outbox.appendAll of none": 0,
            "outbox.pending": 1,
            "ledger.openAccount": 1,
            "ledger.openAccount again": 1,
            "ledger.openAccounts": 1,
            "ledger.openAccounts again": 1,
            "ledger.openAccounts of none": 0,
            "ledger.post": 1,
            "ledger.confirm": 1,
            "ledger.release": 1,
            "ledger.balance": 1,
            "ledger.balance of a system account": 2,
            "ledger.reconcile": 2,
            "ledger.postedTotals": 1,
            "internalAccounts.insert": 1,
            "internalAccounts.insertAll": 1,
            "internalAccounts.insertAll of none": 0,
            "internalAccounts.findById": 1,
            "internalAccounts.list": 2,
            "internalAccounts.setPrivateEnabled": 1,
            "authMethods.insert": 1,
            "authMethods.listByAccount": 1,
            "authMethods.insertAll": 1,
            "authMethods.insertAll of none": 0,
            "authMethods.insertUnique": 1,
            "authMethods.findById": 1,
            "authMethods.advancePasskeyCounter": 1,
            "authMethods.rename": 1,
            "authMethods.deleteUnlessLast": 1,
            "authSessions.insert": 1,
            "authSessions.findById": 1,
            "authSessions.listActive": 1,
            "authSessions.listActiveBeside": 1,
            "authSessions.revoke": 1,
            "authSessions.revokeIssuedBy": 1,
            "authSessions.revokeConsuming": 1,
            "signedRequests.insert": 1,
            "signedRequests.findById": 1,
            "signedRequests.consume": 1,
            "signedRequests.purgeExpired": 1,
            "otpChallenges.put": 1,
            "otpChallenges.find": 1,
            "otpChallenges.recordFailure": 1,
            "otpChallenges.take": 1,
            "walletSecrets.keep": 1,
            "documents.insert": 1,
            "documents.findById": 1,
            "documents.list": 2,
            "documents.listByHolders": 1,
            "documents.listByHolders of none": 0,
            "documents.replace": 1,
            "documents.markSubmitted": 1,
            "documents.markSubmitted of none": 0,
            "documents.delete": 1,
            "beneficialOwners.insert": 1,
            "beneficialOwners.findById": 1,
            "beneficialOwners.list": 2,
            "beneficialOwners.listAll": 1,
            "beneficialOwners.update": 1,
            "beneficialOwners.resolveKycStatus": 1,
            "externalAccounts.insert": 1,
            "externalAccounts.insert a default": 3,
            "externalAccounts.findById": 1,
            "externalAccounts.list": 2,
            "externalAccounts.list matching nothing": 1,
            "externalAccounts.transition": 1,
            "externalAccounts.delete": 1,
            "quotes.insert": 1,
            "quotes.findById": 1,
            "quotes.list": 1,
            "quotes.transition": 1,
            "umaLookups.insert": 1,
            "umaLookups.findById": 1,
            "transactions.insert": 1,
            "transactions.findById": 1,
            "transactions.list": 1,
            "transactions.list by account": 1,
            "transactions.list by a text no row holds": 0,
            "transactions.transition": 1,
            "transactions.advance": 1,
            "unitOfWork.transaction of nothing": 0
          })
        })
      )

      it.effect("runs each agents repository operation in its fixed number of statements", () =>
        Effect.gen(function* () {
          const { count, counts } = counter()
          const platform = yield* Fixtures.insertPlatform
          const agents = yield* AgentRepo.AgentRepo
          const agent = AgentFixtures.agent(platform.id)
          yield* count("agents.insert", agents.insert(agent))
          yield* count("agents.findById", agents.findById(platform.id, agent.id))
          yield* count("agents.list", agents.list(platform.id, { customerId: agent.customerId }, firstPage))
          yield* count(
            "agents.list matching nothing",
            agents.list(platform.id, { customerId: "\u0000" as Customer.CustomerId }, firstPage)
          )
          yield* count("agents.update", agents.update({ ...agent, name: "Renamed" }, 1))
          const code = AgentFixtures.deviceCode(agent)
          yield* count("agents.insertDeviceCode", agents.insertDeviceCode(code))
          yield* count("agents.findDeviceCode", agents.findDeviceCode(code.codeHash))
          const token = AgentFixtures.hash()
          yield* count("agents.redeemDeviceCode", agents.redeemDeviceCode(code.codeHash, token, Fixtures.at(1)))
          yield* count("agents.findByTokenHash", agents.findByTokenHash(token))
          yield* count("agents.delete", agents.delete(platform.id, agent.id, Fixtures.at(2)))

          const usage = yield* AgentUsageRepo.AgentUsageRepo
          const today = { day: "2026-01-01", month: "2026-01" }
          yield* count("agentUsage.current", usage.current(platform.id, agent.id, today))
          const charge = {
            ...today,
            amountMinor: 100n,
            dailyLimitMinor: 1_000n,
            dailyCountLimit: 5,
            monthlyLimitMinor: undefined
          }
          yield* count("agentUsage.charge", usage.charge(platform.id, agent.id, charge))
          yield* count("agentUsage.rescale", usage.rescale(platform.id, agent.id, { numerator: 1n, denominator: 2n }))

          const actions = yield* AgentActionRepo.AgentActionRepo
          const action = AgentFixtures.quoteAction(agent)
          yield* count("agentActions.insert", actions.insert(action))
          yield* count("agentActions.findById", actions.findById(platform.id, action.id))
          const transactionId = action.transactionId ?? AgentFixtures.transactionId()
          yield* count("agentActions.findByTransactionId", actions.findByTransactionId(platform.id, transactionId))
          yield* count("agentActions.list", actions.list(platform.id, { agentId: agent.id }, firstPage, "asc"))
          yield* count(
            "agentActions.transition",
            actions.transition("PENDING_APPROVAL", { ...action, status: "REJECTED", rejectionReason: "no" })
          )

          expect(counts).toEqual({
            "agents.insert": 1,
            "agents.findById": 1,
            "agents.list": 2,
            "agents.list matching nothing": 0,
            "agents.update": 1,
            "agents.insertDeviceCode": 1,
            "agents.findDeviceCode": 1,
            "agents.redeemDeviceCode": 1,
            "agents.findByTokenHash": 1,
            "agents.delete": 1,
            "agentUsage.current": 1,
            "agentUsage.charge": 1,
            "agentUsage.rescale": 1,
            "agentActions.insert": 1,
            "agentActions.findById": 1,
            "agentActions.findByTransactionId": 1,
            "agentActions.list": 2,
            "agentActions.transition": 1
          })
        })
      )

      it.effect("runs each cards repository operation in its fixed number of statements", () =>
        Effect.gen(function* () {
          const { count, counts } = counter()
          const platform = yield* Fixtures.insertPlatform
          const cards = yield* CardRepo.CardRepo
          const stored = CardFixtures.card(platform.id)
          yield* count("cards.insert", cards.insert(stored))
          yield* count("cards.findById", cards.findById(platform.id, stored.card.id))
          const byCustomer = { customerId: stored.card.customerId, sortOrder: "desc" } as const
          yield* count("cards.list", cards.list(platform.id, byCustomer, firstPage))
          yield* count(
            "cards.list matching nothing",
            cards.list(platform.id, { ...byCustomer, customerId: "\u0000" }, firstPage)
          )
          const frozen = new Card.Card({ ...stored.card, status: "FROZEN" })
          yield* count("cards.update", cards.update({ ...stored, card: frozen, version: 2 }, 1))

          const transactions = yield* CardTransactionRepo.CardTransactionRepo
          const row = CardFixtures.cardTransaction(stored)
          yield* count("cardTransactions.insert", transactions.insert(row))
          yield* count("cardTransactions.findById", transactions.findById(platform.id, row.transaction.id))
          const byCard = { cardId: stored.card.id, sortOrder: "asc" } as const
          yield* count("cardTransactions.list", transactions.list(platform.id, byCard, firstPage))
          yield* count(
            "cardTransactions.list matching nothing",
            transactions.list(platform.id, { ...byCard, cardId: "\u0000" }, firstPage)
          )
          const settled = new CardTransaction.CardTransaction({ ...row.transaction, status: "SETTLED" })
          yield* count("cardTransactions.update", transactions.update({ ...row, transaction: settled, version: 2 }, 1))

          const reveals = yield* CardReveal.CardRevealRepo
          const reveal = CardFixtures.reveal(stored)
          yield* count("cardReveals.insert", reveals.insert(reveal))
          yield* count("cardReveals.find", reveals.find(reveal.tokenHash))
          yield* count("cardReveals.consume", reveals.consume(reveal.tokenHash, Fixtures.at(1)))

          expect(counts).toEqual({
            "cards.insert": 1,
            "cards.findById": 1,
            "cards.list": 1,
            "cards.list matching nothing": 0,
            "cards.update": 1,
            "cardTransactions.insert": 1,
            "cardTransactions.findById": 1,
            "cardTransactions.list": 1,
            "cardTransactions.list matching nothing": 0,
            "cardTransactions.update": 1,
            "cardReveals.insert": 1,
            "cardReveals.find": 1,
            "cardReveals.consume": 1
          })
        })
      )

      it.effect("runs each invitation operation in one statement", () =>
        Effect.gen(function* () {
          const { count, counts } = counter()
          const platform = yield* Fixtures.insertPlatform
          const invitations = yield* InvitationRepo.InvitationRepo
          const invitation = InvitationRepoSuite.invitation(platform.id)
          yield* count("invitations.insert", invitations.insert(invitation))
          yield* count("invitations.findByCode", invitations.findByCode(invitation.code))
          const claim = { code: invitation.code, inviteeUma: "$bob@b.example.com", claimedByPlatformId: platform.id }
          yield* count("invitations.claim", invitations.claim({ ...claim, at: Fixtures.at(1) }))
          yield* count(
            "invitations.cancel",
            invitations.cancel({ ...claim, platformId: platform.id, at: Fixtures.at(2) })
          )
          expect(counts).toEqual({
            "invitations.insert": 1,
            "invitations.findByCode": 1,
            "invitations.claim": 1,
            "invitations.cancel": 1
          })
        })
      )
    }
  )
