import { DateTime, Duration, Effect, Either, Option } from "effect"
import {
  type Card,
  CardJobs,
  CardProvisioningJob,
  Cards,
  Customer,
  CustomerRepo,
  InternalAccount,
  InternalAccountRepo,
  Jobs,
  Outbox,
  PlatformTime,
  type VerificationStatus
} from "@payrail/core"
import { expect } from "vitest"
import type { Harness } from "../support/Harness.js"
import { requestsOf } from "../support/Requests.js"

type Service = Cards.Cards["Type"]

/**
 * What the card tests do through `api`: customers at a chosen KYC status and their accounts over HTTP, accounts the
 * API cannot make (frozen, embedded, with a chosen id) stored directly, the `Cards` service called as a request
 * would, and the provisioning job claimed and run at a chosen time.
 */
export const cardsOf = (api: Harness) => {
  const requests = requestsOf(api)
  const { send } = requests

  /** Runs `effect` `by` after now (the harness platform's sandbox clock is never moved by these tests). */
  const later = <A, E>(by: Duration.Duration, effect: Effect.Effect<A, E, Cards.Cards>) =>
    api.run(PlatformTime.within(by)(effect))
  const service = <A, E>(use: (cards: Service) => Effect.Effect<A, E>) => api.run(Effect.flatMap(Cards.Cards, use))
  const attempt = <A, E>(use: (cards: Service) => Effect.Effect<A, E>) =>
    api.run(Effect.either(Effect.flatMap(Cards.Cards, use)))

  /** Sets the customer's KYC (individual) or KYB (business) status, as a verification outcome would. */
  const setStatus = async (customerId: string, status: VerificationStatus.KycStatus) => {
    await api.run(
      Effect.gen(function* () {
        const repo = yield* CustomerRepo.CustomerRepo
        const stored = Option.getOrThrow(yield* repo.findById(api.platform.id, Customer.CustomerId.make(customerId)))
        const current = stored.customer
        const customer =
          current.customerType === "INDIVIDUAL"
            ? new Customer.IndividualCustomer({ ...current, kycStatus: status })
            : new Customer.BusinessCustomer({ ...current, kybStatus: status })
        expect(
          yield* repo.update(api.platform.id, { ...stored, customer, version: stored.version + 1 }, stored.version)
        ).toBe(true)
      })
    )
  }

  /** A new individual customer with `platformCustomerId` (unique unless given), APPROVED unless `status`. */
  const cardholder = async (
    options: { readonly platformCustomerId?: string; readonly status?: VerificationStatus.KycStatus } = {}
  ) => {
    const platformCustomerId = options.platformCustomerId ?? `pc-${globalThis.crypto.randomUUID()}-900`
    const created = await send("POST", "/customers", {
      customerType: "INDIVIDUAL",
      fullName: "Kim Lee",
      platformCustomerId
    })
    expect(created.status).toBe(201)
    await setStatus(created.body.id, options.status ?? "APPROVED")
    const page = await send("GET", `/internal-accounts?customerId=${created.body.id}`)
    const accounts: Record<string, string> = {}
    let embedded: string | undefined
    for (const account of page.body.data as ReadonlyArray<{
      readonly id: string
      readonly type: string
      readonly balance: { readonly currency: { readonly code: string } }
    }>) {
      if (account.type === "EMBEDDED_WALLET") embedded = account.id
      else accounts[account.balance.currency.code] = account.id
    }
    return { id: created.body.id as string, platformCustomerId, accounts, embedded }
  }

  /** Stores an internal account of `customerId` directly: a chosen id suffix, status or type. */
  const storeAccount = async (
    customerId: string,
    options: {
      readonly suffix?: string
      readonly status?: InternalAccount.InternalAccountStatus
      readonly type?: InternalAccount.InternalAccountType
      readonly currency?: string
    } = {}
  ) => {
    const uuid = globalThis.crypto.randomUUID()
    const id = InternalAccount.InternalAccountId.make(
      `InternalAccount:${options.suffix === undefined ? uuid : `${uuid.slice(0, -options.suffix.length)}${options.suffix}`}`
    )
    const now = DateTime.unsafeNow()
    await api.run(
      Effect.flatMap(InternalAccountRepo.InternalAccountRepo, (repo) =>
        repo.insert(
          api.platform.id,
          new InternalAccount.InternalAccount({
            id,
            customerId: Customer.CustomerId.make(customerId),
            type: options.type ?? "INTERNAL_FIAT",
            currency: options.currency ?? "USD",
            status: options.status ?? "ACTIVE",
            createdAt: now,
            updatedAt: now
          })
        )
      )
    )
    return id as string
  }

  /**
   * Claims the provisioning job of `cardId` if it is due `after` from now (other claimed jobs are released), runs
   * it then through `CardJobs`, and says whether there was one.
   */
  const provision = async (cardId: string, after: Duration.Duration = Duration.zero) => {
    const claimed = await api.run(
      Effect.gen(function* () {
        const jobs = yield* Jobs.Jobs
        const now = DateTime.addDuration(DateTime.unsafeNow(), after)
        const all = yield* jobs.claim({ limit: 1_000, now, lease: Duration.minutes(1) })
        const mine = all.filter(
          (candidate) => candidate.job.kind === CardProvisioningJob.kind && candidate.job.payload["cardId"] === cardId
        )
        for (const other of all) if (!mine.includes(other)) yield* jobs.release(other)
        return mine
      })
    )
    for (const job of claimed) {
      const result = await api.run(
        PlatformTime.within(after)(Effect.either(Effect.flatMap(CardJobs.CardJobs, (jobs) => jobs.provision(job.job))))
      )
      expect(Either.isRight(result)).toBe(true)
      await api.run(Effect.flatMap(Jobs.Jobs, (jobs) => jobs.complete(job)))
    }
    return claimed.length
  }

  /** The outbox's events about `id` (a card), oldest first. */
  const eventsOf = async (id: string) =>
    (await api.run(Effect.flatMap(Outbox.Outbox, (outbox) => outbox.pending(100_000)))).filter(
      (event) => event.data["id"] === id
    )

  /** A card of a new APPROVED cardholder spending from its USD account, made ACTIVE by its job. */
  const activeCard = async (body: Record<string, unknown> = {}) => {
    const holder = await cardholder()
    const created = await send("POST", "/cards", {
      customerId: holder.id,
      form: "VIRTUAL",
      fundingSource: holder.accounts["USD"],
      ...body
    })
    expect(created.status).toBe(201)
    expect(await provision(created.body.id)).toBe(1)
    const card = await service((cards) => cards.get(api.platform, created.body.id as Card.CardId))
    expect(card.status).toBe("ACTIVE")
    return { holder, card }
  }

  return {
    ...requests,
    later,
    service,
    attempt,
    setStatus,
    cardholder,
    storeAccount,
    provision,
    eventsOf,
    activeCard
  }
}

/** The right of `result`, or a thrown error naming its left. */
export const succeeded = <A, E>(result: Either.Either<A, E>): A => {
  if (Either.isLeft(result)) throw new Error(`expected success, got ${JSON.stringify(result.left)}`)
  return result.right
}

/** The left of `result`, or a thrown error naming its right. */
export const failed = <A, E>(result: Either.Either<A, E>): E => {
  if (Either.isRight(result)) throw new Error(`expected a failure, got ${JSON.stringify(result.right)}`)
  return result.left
}
