import { describe, expect, it } from "@effect/vitest"
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { sha256 } from "@noble/hashes/sha2.js"
import { bech32 } from "@scure/base"
import { decode } from "light-bolt11-decoder"
import { LightningDestination } from "@payrail/core"
import { SandboxLightningInvoice } from "@payrail/sandbox"

const encoder = new TextEncoder()

const invoice = SandboxLightningInvoice.encode({
  amountSats: 12_345n,
  paymentHash: sha256(encoder.encode("payment")),
  paymentSecret: sha256(encoder.encode("secret")),
  description: "Payrail quote Quote:abc",
  timestampSeconds: 1_767_225_600,
  expirySeconds: 300,
  nodeSecretKey: SandboxLightningInvoice.sandboxNodeSecretKey
})

const section = (name: string) => {
  const found = decode(invoice).sections.find((candidate) => candidate.name === name)
  if (found === undefined) throw new Error(`no ${name} section`)
  return found as { readonly value: unknown }
}

describe("SandboxLightningInvoice", () => {
  it("decodes with a real BOLT11 decoder: amount, hash, description, expiry and timestamp", () => {
    expect(invoice.startsWith("lnbc123450n1")).toBe(true)
    expect(section("amount").value).toBe("12345000")
    expect(section("payment_hash").value).toBe(Buffer.from(sha256(encoder.encode("payment"))).toString("hex"))
    expect(section("description").value).toBe("Payrail quote Quote:abc")
    expect(section("expiry").value).toBe(300)
    expect(section("timestamp").value).toBe(1_767_225_600)
    expect(LightningDestination.isBolt11Invoice(invoice)).toBe(true)
  })

  it("is signed by the sandbox node: the signature recovers its public key", () => {
    const { prefix, words } = bech32.decode(invoice as `${string}1${string}`, false)
    const data = words.slice(0, words.length - 104)
    const signature = bech32.fromWords(words.slice(words.length - 104))
    const message = sha256(
      new Uint8Array([...encoder.encode(prefix), ...SandboxLightningInvoice.wordsToPaddedBytes(data)])
    )
    const recovered = new Uint8Array([signature[64]!, ...signature.slice(0, 64)])
    const publicKey = secp256k1.recoverPublicKey(recovered, message, { prehash: false })
    expect(publicKey).toEqual(secp256k1.getPublicKey(SandboxLightningInvoice.sandboxNodeSecretKey))
  })
})
