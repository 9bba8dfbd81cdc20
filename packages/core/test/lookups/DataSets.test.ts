import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { AccountTypeCurrency, CountryCode, ReceivingInstitutions, Vasps } from "@payrail/core"

/** The fiat currencies of our account types: every one an account type names, crypto assets and SWIFT's "any" aside. */
const fiatCurrencies = [
  ...new Set(
    Object.values(AccountTypeCurrency.accountTypeCurrency)
      .flatMap((codes) => (codes === "ANY_FIAT" ? [] : codes))
      .filter((code) => !AccountTypeCurrency.cryptoCurrencyCodes.has(code))
  )
].sort()

const eurozone = [
  "AT",
  "BE",
  "CY",
  "DE",
  "EE",
  "ES",
  "FI",
  "FR",
  "GR",
  "HR",
  "IE",
  "IT",
  "LT",
  "LU",
  "LV",
  "MT",
  "NL",
  "PT",
  "SI",
  "SK"
]

const institutions = await ReceivingInstitutions.load()

describe("the receiving institutions data set", () => {
  it("serves a corridor for every fiat currency of our account types, and only those", () => {
    expect([...institutions.corridors.keys()].sort()).toEqual(fiatCurrencies)
    expect([...(institutions.corridors.get("EUR") ?? [])].sort()).toEqual(eurozone)
    expect([...(institutions.corridors.get("XOF") ?? [])].sort()).toEqual([
      "BF",
      "BJ",
      "CI",
      "GW",
      "ML",
      "NE",
      "SN",
      "TG"
    ])
    expect([...(institutions.corridors.get("XAF") ?? [])].sort()).toEqual(["CF", "CG", "CM", "GA", "GQ", "TD"])
    expect(institutions.corridors.get("USD")).toEqual(["US", "SV"])
  })

  it("has institutions in every supported country: at least 4 each, dozens in the large markets", () => {
    const countries = [...institutions.corridors.values()].flat()
    expect(countries.length).toBeGreaterThanOrEqual(70)
    for (const country of countries) {
      expect(Schema.is(CountryCode.CountryCode)(country), country).toBe(true)
      const found = ReceivingInstitutions.find(institutions, { country })
      expect(found.length, country).toBeGreaterThanOrEqual(4)
    }
    for (const country of ["US", "GB", "DE", "FR", "IN", "BR", "MX", "PH", "NG", "KE", "ZA", "CN"]) {
      expect(ReceivingInstitutions.find(institutions, { country }).length, country).toBeGreaterThanOrEqual(20)
    }
  })

  it("carries real institutions under the names the SWIFT directory gives them", () => {
    const names = (country: string) =>
      ReceivingInstitutions.find(institutions, { country }).map((entry) => entry.bankName)
    expect(names("PH")).toEqual(expect.arrayContaining(["BDO UNIBANK, INC.", "BANK OF THE PHILIPPINE ISLANDS"]))
    expect(names("FR")).toContain("BNP PARIBAS")
    expect(names("KE")).toContain("ACCESS BANK (KENYA) PLC")
  })

  it("gives each institution its country's currency, once per country, sorted by country then name", () => {
    const seen = new Set<string>()
    for (const entry of institutions.all) {
      expect(institutions.corridors.get(entry.currency), entry.bankName).toContain(entry.country)
      const key = `${entry.country}/${entry.bankName.toUpperCase()}`
      expect(seen.has(key), key).toBe(false)
      seen.add(key)
      expect(entry.displayName.length).toBeGreaterThan(0)
    }
    const countries = institutions.all.map((entry) => entry.country)
    expect(countries).toEqual([...countries].sort())
  })

  it("filters by country, by currency, by both; a corridor it does not serve is empty", () => {
    expect(ReceivingInstitutions.find(institutions, {}).length).toBe(institutions.all.length)
    const xof = ReceivingInstitutions.find(institutions, { currency: "XOF" })
    expect(new Set(xof.map((entry) => entry.country)).size).toBe(8)
    expect(ReceivingInstitutions.find(institutions, { country: "SN", currency: "XOF" }).length).toBeGreaterThan(0)
    expect(ReceivingInstitutions.find(institutions, { country: "SN", currency: "EUR" })).toEqual([])
    expect(ReceivingInstitutions.find(institutions, { country: "JP" })).toEqual([])
  })
})

describe("the VASP directory", () => {
  it("lists dozens of providers by unique name in case-insensitive order, each with an https website", () => {
    expect(Vasps.all.length).toBeGreaterThanOrEqual(50)
    const names = Vasps.all.map((vasp) => vasp.vaspName.toLowerCase())
    expect(new Set(names).size).toBe(names.length)
    expect(names).toEqual([...names].sort())
    for (const vasp of Vasps.all) expect(vasp.url).toMatch(/^https:\/\/[a-z0-9.-]+\.[a-z]+$/)
    expect(Vasps.all.map((vasp) => vasp.vaspName)).toEqual(expect.arrayContaining(["Kraken", "Coinbase", "Binance"]))
  })
})
