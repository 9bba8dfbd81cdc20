import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import * as fc from "fast-check"
import { LightningDestination } from "../src/index.js"

// BOLT11 specification examples (mainnet without amount, 2500u, testnet 20m) and a regtest invoice.
const invoices = [
  "lnbc1pvjluezsp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygspp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdpl2pkx2ctnv5sxxmmwwd5kgetjypeh2ursdae8g6twvus8g6rfwvs8qun0dfjkxaq9qrsgq357wnc5r2ueh7ck6q93dj32dlqnls087fxdwk8qakdyafkq3yap9us6v52vjjsrvywa6rt52cm9r9zqt8r2t7mlcwspyetp5h2tztugp9lfyql",
  "lnbc2500u1pvjluezsp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygspp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdq5xysxxatsyp3k7enxv4jsxqzpu9qrsgquk0rl77nj30yxdy8j9vdx85fkpmdla2087ne0xh8nhedh8w27kyke0lp53ut353s06fv3qfegext0eh0ymjpf39tuven09sam30g4vgpfna3rh",
  "lntb20m1pvjluezsp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygshp58yjmdan79s6qqdhdzgynm4zwqd5d7xmw5fk98klysy043l2ahrqspp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqfpp3x9et2e20v6pu37c5d9vax37wxq72un989qrsgqdj545axuxtnfemtpwkc45hx9d2ft7x04mt8q7y6t0k2dge9e7h8kpy9p34ytyslj3yu569aalz2xdk8xkd7ltxqld94u8h2esmsmacgpghe9k8",
  "lnbcrt2234660n1pjg7xnqxq8pjg7stspp5sq0le60mua87e3lvd7njw9khmesk0nzkqa34qc4jg7tm2num5jlqsp58p4rswtywdnx5wtn8pjxv6nnvsukv6mdve4xzernd9nx5mmpv35s9qrsgqdqhg35hyetrwssxgetsdaekjaqcqpcnp4q0tmlmj0gdeksm6el92s4v3gtw2nt3fjpp7czafjpfd9tgmv052jshcgr3e64wp4uum2c336uprxrhl34ryvgnl56y2usgmvpkt0xajyn4qfvguh7fgm6d07n00hxcrktmkz9qnprr3gxlzy2f4q9r68scwsp5d6f6r"
]

// The canonical offer of the BOLT12 specification's format-string-test.json.
const offer =
  "lno1pqps7sjqpgtyzm3qv4uxzmtsd3jjqer9wd3hy6tsw35k7msjzfpy7nz5yqcnygrfdej82um5wf5k2uckyypwa3eyt44h6txtxquqh7lz5djge4afgfjn7k4rgrkuag0jsd5xvxg"

const charset = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"

describe("BOLT11 invoices", () => {
  it("accepts real invoices of every network, in either case", () => {
    for (const invoice of invoices) {
      expect(LightningDestination.isBolt11Invoice(invoice)).toBe(true)
      expect(LightningDestination.isBolt11Invoice(invoice.toUpperCase())).toBe(true)
    }
  })

  it("refuses mixed case, unknown networks, malformed amounts and truncation", () => {
    const [first] = invoices
    for (const invoice of [
      first!.replace("lnbc", "LNbc"),
      first!.replace("lnbc", "lnxy"),
      first!.replace("lnbc1", "lnbc01"),
      first!.slice(0, -7) + first!.slice(-6),
      "lnbc1qqqqqqqq"
    ]) {
      expect(LightningDestination.isBolt11Invoice(invoice)).toBe(false)
    }
  })

  it("detects any single changed character after the prefix", () => {
    fc.assert(
      fc.property(fc.constantFrom(...invoices), fc.nat(), fc.integer({ min: 1, max: 31 }), (invoice, at, shift) => {
        const start = invoice.lastIndexOf("1") + 1
        const index = start + (at % (invoice.length - start))
        const changed = charset[(charset.indexOf(invoice[index]!) + shift) % 32]!
        expect(LightningDestination.isBolt11Invoice(invoice.slice(0, index) + changed + invoice.slice(index + 1))).toBe(
          false
        )
      })
    )
  })
})

describe("BOLT12 offers", () => {
  it("accepts the specification's offer in either case", () => {
    expect(LightningDestination.isBolt12Offer(offer)).toBe(true)
    expect(LightningDestination.isBolt12Offer(offer.toUpperCase())).toBe(true)
  })

  it("refuses a truncated TLV stream, mixed case, continuations and other prefixes", () => {
    for (const text of [
      offer.slice(0, 60),
      offer.replace("lno1pqps", "lno1PQPS"),
      `${offer.slice(0, 40)}+\n${offer.slice(40)}`,
      offer.replace("lno1", "lni1"),
      "lno1"
    ]) {
      expect(LightningDestination.isBolt12Offer(text)).toBe(false)
    }
  })
})

describe("Lightning addresses", () => {
  const isAddress = Schema.is(LightningDestination.LightningAddress)

  it("accepts user@domain and exposes the user part", () => {
    for (const address of ["john.doe@lightningwallet.com", "ada+tips@getalby.com", "x_1-2@sub.domain.io"]) {
      expect(isAddress(address), address).toBe(true)
      expect(LightningDestination.usernameOf(address)).toBe(address.slice(0, address.indexOf("@")))
    }
  })

  it("refuses addresses without a user, a domain or a top-level label, and spaces", () => {
    for (const address of [
      "@getalby.com",
      "ada@",
      "ada@localhost",
      "ada lovelace@getalby.com",
      "ada@getalby.c0m",
      "$ada@uma.money"
    ]) {
      expect(isAddress(address), address).toBe(false)
    }
  })
})
