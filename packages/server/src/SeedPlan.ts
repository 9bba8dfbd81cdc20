import { Effect, Random } from "effect"

/** A customer the seed creates. */
export type SeedCustomer =
  | {
      readonly customerType: "INDIVIDUAL"
      readonly fullName: string
      readonly birthDate: string
      readonly nationality: string
      readonly address: SeedAddress
    }
  | {
      readonly customerType: "BUSINESS"
      readonly businessInfo: { readonly legalName: string; readonly country: string }
      readonly address: SeedAddress
    }

export interface SeedAddress {
  readonly line1: string
  readonly city: string
  readonly postalCode: string
  readonly country: string
}

/** One movement of money on a day of the seed; customers by their index in `customers`. */
export type SeedOperation =
  | { readonly kind: "fund"; readonly customer: number; readonly currency: string; readonly amount: number }
  | {
      readonly kind: "transfer"
      readonly from: number
      readonly to: number
      readonly toCurrency: string
      readonly amount: number
      /** Left unexecuted: it expires. */
      readonly abandoned: boolean
    }
  | { readonly kind: "payout"; readonly customer: number; readonly amount: number }

/** What `payrail seed` creates, decided before anything is sent, so that a seed number always means the same data. */
export interface SeedPlan {
  readonly customers: ReadonlyArray<SeedCustomer>
  /** The index of each customer that gets an external USD account, and the last digits of its number. */
  readonly externalAccounts: ReadonlyArray<{ readonly customer: number; readonly suffix: string }>
  /** The operations of each day, oldest day first; the sandbox clock moves a day after each. */
  readonly days: ReadonlyArray<ReadonlyArray<SeedOperation>>
}

/** The currencies the seed uses: customers hold an account in each; payments start in USD. */
export const currencies = ["USD", "EUR", "MXN"] as const

interface Country {
  readonly code: string
  readonly first: ReadonlyArray<string>
  readonly last: ReadonlyArray<string>
  readonly cities: ReadonlyArray<readonly [city: string, postalCode: string]>
  readonly street: string
  readonly companies: ReadonlyArray<string>
}

// Where customers live, with names and places typical of each country.
const countries: ReadonlyArray<Country> = [
  {
    code: "US",
    first: ["Olivia", "James", "Emma", "Noah", "Ava"],
    last: ["Smith", "Johnson", "Brown", "Miller"],
    cities: [
      ["Austin", "78701"],
      ["Denver", "80202"],
      ["Boston", "02108"]
    ],
    street: "Main Street",
    companies: ["Blue Ridge Supply LLC", "Harbor Analytics Inc."]
  },
  {
    code: "DE",
    first: ["Lena", "Jonas", "Mia", "Felix"],
    last: ["Müller", "Schmidt", "Weber", "Becker"],
    cities: [
      ["Berlin", "10115"],
      ["Hamburg", "20095"],
      ["München", "80331"]
    ],
    street: "Hauptstraße",
    companies: ["Nordlicht Handels GmbH", "Rheinwerk Logistik AG"]
  },
  {
    code: "MX",
    first: ["Sofía", "Mateo", "Valentina", "Santiago"],
    last: ["García", "Hernández", "López", "Martínez"],
    cities: [
      ["Ciudad de México", "06000"],
      ["Guadalajara", "44100"],
      ["Monterrey", "64000"]
    ],
    street: "Avenida Reforma",
    companies: ["Comercial Azteca S.A. de C.V.", "Textiles del Norte S.A."]
  },
  {
    code: "BR",
    first: ["Ana", "Lucas", "Beatriz", "Gabriel"],
    last: ["Silva", "Souza", "Oliveira", "Costa"],
    cities: [
      ["São Paulo", "01000-000"],
      ["Rio de Janeiro", "20000-000"]
    ],
    street: "Rua das Flores",
    companies: ["Café Serra Verde Ltda."]
  },
  {
    code: "GB",
    first: ["Amelia", "Oliver", "Isla", "George"],
    last: ["Taylor", "Davies", "Evans", "Wilson"],
    cities: [
      ["London", "EC1A 1BB"],
      ["Manchester", "M1 1AE"]
    ],
    street: "High Street",
    companies: ["Thames Digital Ltd"]
  },
  {
    code: "FR",
    first: ["Chloé", "Louis", "Camille", "Hugo"],
    last: ["Martin", "Bernard", "Dubois", "Laurent"],
    cities: [
      ["Paris", "75001"],
      ["Lyon", "69001"]
    ],
    street: "Rue de la République",
    companies: ["Atelier Lumière SARL"]
  }
]

const pick = <A>(items: ReadonlyArray<A>): Effect.Effect<A> =>
  Effect.map(Random.nextIntBetween(0, items.length), (index) => items[index] as A)

const between = (min: number, max: number): Effect.Effect<number> => Random.nextIntBetween(min, max + 1)

const customerAt = (index: number): Effect.Effect<SeedCustomer> =>
  Effect.gen(function* () {
    // Every country appears once the seed has as many customers; then they repeat in order.
    const country = countries[index % countries.length] as Country
    const [city, postalCode] = yield* pick(country.cities)
    const address = {
      line1: `${yield* between(1, 220)} ${country.street}`,
      city,
      postalCode,
      country: country.code
    }
    // About one customer in three is a business.
    if ((yield* between(0, 2)) === 0) {
      return {
        customerType: "BUSINESS",
        businessInfo: { legalName: yield* pick(country.companies), country: country.code },
        address
      }
    }
    const month = String(yield* between(1, 12)).padStart(2, "0")
    const day = String(yield* between(1, 28)).padStart(2, "0")
    return {
      customerType: "INDIVIDUAL",
      fullName: `${yield* pick(country.first)} ${yield* pick(country.last)}`,
      birthDate: `${yield* between(1955, 2003)}-${month}-${day}`,
      nationality: country.code,
      address
    }
  })

const operationOn = (customers: number, payers: ReadonlyArray<number>): Effect.Effect<SeedOperation> =>
  Effect.gen(function* () {
    const roll = yield* between(1, 100)
    const from = yield* between(0, customers - 1)
    if (roll <= 15) {
      return {
        kind: "fund",
        customer: from,
        // In USD: a currency added to a platform after its creation has no rail clearing account to fund it from
        // (the platform's system accounts open with the platform), so EUR and MXN balances come from conversions.
        currency: "USD",
        amount: (yield* between(50, 2_000)) * 100
      }
    }
    if (roll <= 25 && payers.length > 0) {
      return { kind: "payout", customer: yield* pick(payers), amount: (yield* between(10, 400)) * 100 }
    }
    let to = yield* between(0, customers - 2)
    if (to >= from) to += 1
    return {
      kind: "transfer",
      from,
      to,
      // Half the transfers stay in USD, the others convert.
      toCurrency: roll <= 60 ? "USD" : yield* pick(["EUR", "MXN"]),
      amount: (yield* between(5, 300)) * 100 + (yield* between(0, 99)),
      abandoned: roll > 95
    }
  })

/**
 * The plan of `customers` customers (at least 2) and `days` days of activity, a function of `seed` alone: every
 * customer's USD account is funded on the first day, a third of them get an external USD account (numbers ending
 * 001: the payout completes, 003: it completes after about 6 minutes, 002: it fails), each day has one to four
 * fundings, same- and cross-currency transfers between customers, payouts and quotes left to expire, and the last day
 * pays out to every external account.
 */
export const make = (seed: number, customers: number, days: number): Effect.Effect<SeedPlan> =>
  Effect.gen(function* () {
    const people = yield* Effect.forEach(
      Array.from({ length: customers }, (_, index) => index),
      customerAt
    )
    const externalAccounts = people.flatMap((_, index) =>
      index % 3 === 1 ? [{ customer: index, suffix: ["001", "003", "002"][Math.floor(index / 3) % 3] as string }] : []
    )
    const payers = externalAccounts.map(({ customer }) => customer)
    const opening: Array<SeedOperation> = people.map((_, customer) => ({
      kind: "fund",
      customer,
      currency: "USD",
      amount: 500_000
    }))
    const activity = yield* Effect.forEach(
      Array.from({ length: days }, (_, day) => day),
      () =>
        Effect.flatMap(between(1, 4), (count) =>
          Effect.forEach(Array.from({ length: count }), () => operationOn(customers, payers))
        )
    )
    // The last day pays out to every external account, so the platform ends with a payout of each outcome:
    // completed (001), still in flight (003) and failed (002).
    // It also leaves one quote unexecuted, which expires as the clock moves past the last day.
    const closing: Array<SeedOperation> = [
      ...payers.map((customer): SeedOperation => ({ kind: "payout", customer, amount: 12_500 })),
      { kind: "transfer", from: 0, to: 1, toCurrency: "EUR", amount: 2_000, abandoned: true }
    ]
    const planned = activity.map((operations, day) => [
      ...(day === 0 ? opening : []),
      ...operations,
      ...(day === activity.length - 1 ? closing : [])
    ])
    return { customers: people, externalAccounts, days: planned }
  }).pipe(Effect.withRandom(Random.make(seed)))

/** What a plan comes to, counted as `payrail seed` promises it. */
export const countsOf = (plan: SeedPlan) => {
  const operations = plan.days.flat()
  const transfers = operations.filter((operation) => operation.kind === "transfer")
  return {
    customers: plan.customers.length,
    individuals: plan.customers.filter((customer) => customer.customerType === "INDIVIDUAL").length,
    businesses: plan.customers.filter((customer) => customer.customerType === "BUSINESS").length,
    countries: new Set(plan.customers.map((customer) => customer.address.country)).size,
    internalAccounts: plan.customers.length * currencies.length,
    externalAccounts: plan.externalAccounts.length,
    fundings: operations.filter((operation) => operation.kind === "fund").length,
    sameCurrencyTransfers: transfers.filter((transfer) => transfer.toCurrency === "USD").length,
    crossCurrencyTransfers: transfers.filter((transfer) => transfer.toCurrency !== "USD").length,
    payouts: operations.filter((operation) => operation.kind === "payout").length,
    expiringQuotes: transfers.filter((transfer) => transfer.abandoned).length,
    transactions: operations.length
  }
}
