import { Context, DateTime, Effect, Layer, Option, Redacted } from "effect"
import { ContactVerification, Customer, type CustomerErrors, Customers } from "../customers/index.js"
import { Ids, PlatformTime, Sha256, type StoreFailure, UnitOfWork } from "../kernel/index.js"
import { type Platform, PlatformRepo, SandboxClock } from "../platforms/index.js"
import { type CreateKycLinkRequest, KycLinkResponse, lifetime, pagePath, type StoredKycLink } from "./KycLink.js"
import { ContactVerificationIncomplete, KycLinkNotFound, KycLinkUnusable } from "./KycLinkErrors.js"
import { KycLinkRepo } from "./KycLinkRepo.js"

/**
 * The public base URL of the server that serves the hosted page (scheme, host, port and any mount prefix, no
 * trailing slash): `kycUrl` is this plus `/verify/<secret>`. The reference server sets it from `PAYRAIL_PUBLIC_URL`
 * (or its listening address); an embedder provides its own.
 */
export class PublicBaseUrl extends Context.Reference<PublicBaseUrl>()("@payrail/core/KycLinks/PublicBaseUrl", {
  defaultValue: () => "http://127.0.0.1:8080"
}) {}

/** A usable link opened from its secret: the link, its platform and its customer (read now). */
export interface OpenedLink {
  readonly link: StoredKycLink
  readonly platform: Platform.Platform
  readonly customer: Customer.Customer
}

/** The hosted verification links: issued to a platform for one customer, opened and spent by the person. */
export class KycLinks extends Context.Tag("@payrail/core/KycLinks")<
  KycLinks,
  {
    /**
     * Issues a new link for the live customer, valid for 24 hours of the platform's clock; earlier links stay
     * valid. Only the hash of its secret is stored. Refused (409) while the customer's region verifies contacts
     * and its email or phone is not verified.
     */
    readonly create: (
      platform: Platform.Platform,
      customerId: Customer.CustomerId,
      request: CreateKycLinkRequest
    ) => Effect.Effect<
      KycLinkResponse,
      | CustomerErrors.CustomerNotFound
      | CustomerErrors.CustomerDeleted
      | ContactVerificationIncomplete
      | StoreFailure.StoreFailure
    >
    /**
     * The link whose secret this is, if it is unspent and unexpired at its platform's time, with its platform and
     * customer. 404 for an unknown secret, 410 for a spent or expired link.
     */
    readonly open: (
      secret: Redacted.Redacted<string>
    ) => Effect.Effect<
      OpenedLink,
      KycLinkNotFound | KycLinkUnusable | CustomerErrors.CustomerNotFound | StoreFailure.StoreFailure
    >
    /**
     * Runs `effect` and spends the link in one unit of work: of concurrent spends exactly one commits `effect`, the
     * others fail `KycLinkUnusable` and keep nothing of theirs; when `effect` fails, the link stays usable. When
     * `keepUsableIf` holds for the result (a submission that found errors to fix), the result is committed and the
     * link is not spent, so the person can fix them and submit again.
     */
    readonly spendWith: <A, E, R>(
      opened: OpenedLink,
      effect: Effect.Effect<A, E, R>,
      options?: { readonly keepUsableIf?: (result: A) => boolean }
    ) => Effect.Effect<A, E | KycLinkUnusable | StoreFailure.StoreFailure, R>
  }
>() {}

const secretPrefix = "kyc_"

/** The contacts the customer's region verifies that are not verified yet (none outside such regions). */
const unverifiedContacts = (customer: Customer.Customer): ReadonlyArray<"email" | "phone"> => {
  if (!ContactVerification.usesContactVerification(customer.region)) return []
  const status = customer.contactVerification ?? {}
  return (["email", "phone"] as const).filter((channel) => status[channel] === "PENDING")
}

/** The platform's time: real time plus its sandbox clock's offset. */
const inPlatformTime = (platform: Platform.Platform) => PlatformTime.within(SandboxClock.offsetOf(platform))

export const layer = Layer.effect(
  KycLinks,
  Effect.gen(function* () {
    const repo = yield* KycLinkRepo
    const platforms = yield* PlatformRepo.PlatformRepo
    const customers = yield* Customers.Customers
    const store = yield* UnitOfWork.UnitOfWork
    const ids = yield* Ids.Ids
    // Read once, where the layer is built: the server provides it to the domain's layers, not to each request.
    const base = yield* PublicBaseUrl

    const unusable = (link: StoredKycLink, now: DateTime.Utc) =>
      link.spentAt !== undefined
        ? Option.some(KycLinkUnusable.of("SPENT"))
        : DateTime.lessThanOrEqualTo(link.expiresAt, now)
          ? Option.some(KycLinkUnusable.of("EXPIRED"))
          : Option.none()

    return {
      create: Effect.fn("KycLinks.create")(function* (
        platform: Platform.Platform,
        customerId: Customer.CustomerId,
        request: CreateKycLinkRequest
      ) {
        const customer = yield* customers.requireLive(platform, customerId)
        const unverified = unverifiedContacts(customer)
        if (unverified.length > 0) return yield* ContactVerificationIncomplete.of(unverified)
        const secret = `${secretPrefix}${Ids.base64url(yield* ids.randomBytes(32))}`
        const now = yield* DateTime.now
        const expiresAt = DateTime.addDuration(now, lifetime)
        yield* repo.insert({
          secretHash: yield* Sha256.hex(secret),
          platformId: platform.id,
          customerId,
          redirectUri: request.redirectUri,
          createdAt: now,
          expiresAt,
          spentAt: undefined
        })
        return new KycLinkResponse({ kycUrl: `${base}${pagePath}/${secret}`, expiresAt, provider: "PAYRAIL" })
      }),

      open: Effect.fn("KycLinks.open")(function* (secret: Redacted.Redacted<string>) {
        const found = yield* repo.findBySecretHash(yield* Sha256.hex(Redacted.value(secret)))
        if (Option.isNone(found)) return yield* KycLinkNotFound.of()
        const link = found.value
        const platform = yield* Effect.flatMap(platforms.findById(link.platformId), (option) =>
          Option.isSome(option) ? Effect.succeed(option.value) : Effect.fail(KycLinkNotFound.of())
        )
        const now = yield* inPlatformTime(platform)(DateTime.now)
        const refusal = unusable(link, now)
        if (Option.isSome(refusal)) return yield* refusal.value
        const customer = yield* customers.get(platform, link.customerId)
        return { link, platform, customer }
      }),

      spendWith: <A, E, R>(
        opened: OpenedLink,
        effect: Effect.Effect<A, E, R>,
        options: { readonly keepUsableIf?: (result: A) => boolean } = {}
      ) =>
        store
          .transaction(
            Effect.gen(function* () {
              const result = yield* effect
              if (options.keepUsableIf?.(result) === true) return result
              // Spent after the effect, in its unit of work: a concurrent spender waits on the link's row, then finds
              // it spent and rolls its own effect back.
              const now = yield* inPlatformTime(opened.platform)(DateTime.now)
              if (!(yield* repo.spend(opened.link.secretHash, now))) {
                const latest = yield* repo.findBySecretHash(opened.link.secretHash)
                return yield* Effect.fail(
                  KycLinkUnusable.of(Option.isSome(latest) && latest.value.spentAt === undefined ? "EXPIRED" : "SPENT")
                )
              }
              return result
            })
          )
          .pipe(Effect.withSpan("KycLinks.spendWith"))
    }
  })
)
