import { describe, expect, it } from "@effect/vitest"
import { Either, ParseResult, Schema } from "effect"
import * as fc from "fast-check"
import { FieldError, WalletAddress } from "@payrail/core"

const eip55Vectors = [
  "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
  "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
  "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
  "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
  "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"
]

const flipCaseAt = (text: string, index: number) =>
  text.slice(0, index) +
  (text[index] === text[index]!.toLowerCase() ? text[index]!.toUpperCase() : text[index]!.toLowerCase()) +
  text.slice(index + 1)

describe("EVM addresses", () => {
  it("accepts the EIP-55 vectors and their all-lower and all-upper forms", () => {
    for (const address of eip55Vectors) {
      expect(WalletAddress.isEvmAddress(address)).toBe(true)
      expect(WalletAddress.toEip55(address.toLowerCase())).toBe(address)
      expect(WalletAddress.isEvmAddress(address.toLowerCase())).toBe(true)
      expect(WalletAddress.isEvmAddress(`0x${address.slice(2).toUpperCase()}`)).toBe(true)
    }
  })

  it("refuses a wrong checksum, wrong lengths, a missing prefix and the zero address", () => {
    for (const address of [
      "0xAbCDEF1234567890aBCdEf1234567890ABcDef12",
      "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe",
      "5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed00",
      "0X5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
      "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeg",
      `0x${"0".repeat(40)}`
    ]) {
      expect(WalletAddress.isEvmAddress(address), address).toBe(false)
    }
  })

  it("detects a single flipped letter case in any checksummed address", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 20, maxLength: 20 }), fc.nat(), (bytes, pick) => {
        const address = WalletAddress.toEip55(`0x${Buffer.from(bytes).toString("hex")}`)
        const letters = [...address].flatMap((char, index) => (index > 1 && /[a-fA-F]/.test(char) ? [index] : []))
        fc.pre(letters.length >= 2 && /[1-9a-f]/i.test(address.slice(2)))
        const flipped = flipCaseAt(address, letters[pick % letters.length]!)
        const hex = flipped.slice(2)
        const unchecked = hex === hex.toLowerCase() || hex === hex.toUpperCase()
        expect(WalletAddress.isEvmAddress(address)).toBe(true)
        expect(WalletAddress.isEvmAddress(flipped)).toBe(unchecked)
      })
    )
  })

  it("reports its constraint and never the value", () => {
    const result = Schema.decodeUnknownEither(Schema.Struct({ address: WalletAddress.EvmAddress }))({
      address: "0xAbCDEF1234567890aBCdEf1234567890ABcDef12"
    })
    if (Either.isRight(result)) throw new Error("expected a failure")
    const [error] = FieldError.fromParseIssue((result.left as ParseResult.ParseError).issue)
    expect(error).toMatchObject({
      field: "address",
      constraint: { format: "evm-address", pattern: "^0x[0-9a-fA-F]{40}$" }
    })
    expect(JSON.stringify(error)).not.toContain("AbCDEF")
  })
})

describe("Solana addresses", () => {
  it("accepts base58 32-byte keys", () => {
    for (const address of [
      "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
      "4Nd1m6Qkq7RfKuE5vQ9qP9Tn6H94Ueqb4xXHzsAbd8Wg",
      "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA",
      "So11111111111111111111111111111111111111112"
    ]) {
      expect(WalletAddress.isSolanaAddress(address), address).toBe(true)
    }
  })

  it("refuses keys that are not 32 bytes, characters outside base58 and the all-zero key", () => {
    for (const address of [
      "EPjFWdd5AufqSSqeM2qN1xzy",
      "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v1",
      "z".repeat(44),
      "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt10",
      "11111111111111111111111111111111",
      "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
    ]) {
      expect(WalletAddress.isSolanaAddress(address), address).toBe(false)
    }
  })
})

describe("Tron addresses", () => {
  it("accepts base58check addresses with version 0x41", () => {
    for (const address of ["TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", "TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL"]) {
      expect(WalletAddress.isTronAddress(address), address).toBe(true)
    }
  })

  it("refuses a changed character, a Bitcoin address and wrong lengths", () => {
    for (const address of [
      "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u",
      "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6",
      "1PMycacnJaSqwwJqjawXBErnLsZ7RkXUAs",
      "AR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"
    ]) {
      expect(WalletAddress.isTronAddress(address), address).toBe(false)
    }
  })
})

describe("Spark addresses", () => {
  const valid = [
    "spark1pgss9z2gpzrnhztwy8ffs44x67angma38sqewwddhxlsk65t0c5d5576quly2j",
    "spark1pgssyele0qrcjdheeq2a0zmpwdwvj3r4f4stkuju0fp36g6grapv2w7l8am2cp"
  ]

  it("accepts bech32m addresses carrying an identity key", () => {
    for (const address of valid) expect(WalletAddress.isSparkAddress(address)).toBe(true)
  })

  it("refuses a bad checksum, other prefixes, upper case and bech32 strings without an identity key", () => {
    for (const address of [
      "spark1pgssyuuuhnrrdjswal5c3s3rafw9w3y5dd4cjy3duxlf7hjzkp0rqx6dj6mrhu",
      `${valid[0]!.slice(0, -1)}q`,
      valid[0]!.replace("spark1", "bc1"),
      valid[0]!.toUpperCase(),
      "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0"
    ]) {
      expect(WalletAddress.isSparkAddress(address), address).toBe(false)
    }
  })
})
