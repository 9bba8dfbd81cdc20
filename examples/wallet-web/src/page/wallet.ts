/// <reference lib="dom" />
// The page's module, bundled by esbuild with @payrail/signer. It talks only to its own backend (`/api/...`).
import { Signer } from "@payrail/signer"
import { Encoding, Result } from "@payrail/wallet-protocol"

/** USDC has 6 decimals: amounts on the wire are integers of micro-USDC. */
const decimals = 6
const finalStatuses = new Set(["COMPLETED", "FAILED", "REJECTED", "EXPIRED", "REFUNDED"])

const element = <E extends HTMLElement>(id: string): E => {
  const found = document.getElementById(id)
  if (found === null) throw new Error(`#${id} is missing`)
  return found as E
}
const button = (id: string) => element<HTMLButtonElement>(id)
const show = (id: string, text: string) => {
  element(id).textContent = text
}
const status = (text: string, state: "idle" | "busy" | "done" | "error" = "idle") => {
  const output = element("status")
  output.textContent = text
  output.dataset["state"] = state
}

const formatAmount = (amount: number) => {
  const whole = Math.floor(amount / 10 ** decimals)
  const fraction = String(amount % 10 ** decimals).padStart(decimals, "0")
  return `${whole}.${fraction} USDC`
}
const parseAmount = (text: string): number => {
  const match = /^(\d{1,9})(?:\.(\d{1,6}))?$/.exec(text.trim())
  if (match === null) throw new Error("Enter an amount such as 12.5")
  return Number(match[1]) * 10 ** decimals + Number((match[2] ?? "").padEnd(decimals, "0"))
}

// WebAuthn gives ArrayBuffers; the API takes base64url strings (wallet-protocol's encoding, no padding).
const base64url = (buffer: ArrayBuffer) => Encoding.toBase64url(new Uint8Array(buffer))
// WebAuthn takes bytes backed by an ArrayBuffer: copied into one.
const owned = (bytes: Uint8Array): Uint8Array<ArrayBuffer> => new Uint8Array(bytes)
const bytesOfBase64url = (text: string) => owned(Result.getOrThrow(Encoding.fromBase64url(text)))
// The spec: a challenge is passed to WebAuthn as the UTF-8 bytes of the hex string exactly as returned.
const challengeBytes = (challenge: string) => owned(Encoding.toUtf8(challenge))

interface Balance {
  readonly amount: number
}

const api = async <A>(path: string, body: object): Promise<A> => {
  const response = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body)
  })
  const answer = (await response.json()) as A & { readonly code?: string; readonly reason?: string }
  if (!response.ok) throw new Error(`${answer.code ?? response.status}: ${answer.reason ?? "refused"}`)
  return answer
}

// The page's state: who signed up, and the session key (generated here; its private half never leaves the page).
let userId: string | undefined
let name = ""
const sessionKey = Signer.generateKeyPair()
let quote: { readonly quoteId: string; readonly payloadToSign: string } | undefined

const signedUp = () => {
  if (userId === undefined) throw new Error("Sign up first")
  return userId
}

const signUp = async () => {
  name = element<HTMLInputElement>("name").value
  const answer = await api<{ userId: string; walletId: string; balance: Balance }>("/api/signup", { name })
  userId = answer.userId
  show("balance", formatAmount(answer.balance.amount))
  button("signup").disabled = true
  button("register").disabled = false
  return `Signed up. Wallet ${answer.walletId} funded with ${formatAmount(answer.balance.amount)}.`
}

const register = async () => {
  const id = signedUp()
  const options = await api<{ challenge: string; rpId: string; userName: string }>("/api/passkeys/challenge", {
    userId: id
  })
  const credential = (await navigator.credentials.create({
    publicKey: {
      challenge: challengeBytes(options.challenge),
      rp: { id: options.rpId, name: "Payrail wallet example" },
      user: { id: owned(Encoding.toUtf8(options.userName)), name: options.userName, displayName: name },
      pubKeyCredParams: [{ type: "public-key", alg: -7 }],
      authenticatorSelection: { residentKey: "preferred", userVerification: "preferred" },
      attestation: "none",
      timeout: 60_000
    }
  })) as PublicKeyCredential | null
  if (credential === null) throw new Error("No passkey was created")
  const response = credential.response as AuthenticatorAttestationResponse
  const registered = await api<{ authMethodId: string }>("/api/passkeys", {
    userId: id,
    nickname: `${name}'s passkey`,
    attestation: {
      credentialId: base64url(credential.rawId),
      clientDataJson: base64url(response.clientDataJSON),
      attestationObject: base64url(response.attestationObject),
      transports: response.getTransports()
    }
  })
  button("register").disabled = true
  button("login").disabled = false
  return `Passkey registered (${registered.authMethodId}).`
}

const logIn = async () => {
  const id = signedUp()
  // The compressed public key selects the client-held-key model: the session's key is this page's own key.
  const challenge = await api<{ challenge: string; requestId: string; credentialId: string }>("/api/login/challenge", {
    userId: id,
    clientPublicKey: sessionKey.publicKeyCompressed
  })
  const credential = (await navigator.credentials.get({
    publicKey: {
      challenge: challengeBytes(challenge.challenge),
      rpId: "localhost",
      allowCredentials: [{ type: "public-key", id: bytesOfBase64url(challenge.credentialId) }],
      userVerification: "preferred",
      timeout: 60_000
    }
  })) as PublicKeyCredential | null
  if (credential === null) throw new Error("The passkey gave no assertion")
  const response = credential.response as AuthenticatorAssertionResponse
  const session = await api<{ sessionId: string; expiresAt: string }>("/api/login/verify", {
    userId: id,
    requestId: challenge.requestId,
    assertion: {
      credentialId: base64url(credential.rawId),
      clientDataJson: base64url(response.clientDataJSON),
      authenticatorData: base64url(response.authenticatorData),
      signature: base64url(response.signature),
      userHandle: response.userHandle === null ? null : base64url(response.userHandle)
    }
  })
  button("login").disabled = true
  button("quote").disabled = false
  return `Logged in: session ${session.sessionId} until ${session.expiresAt}.`
}

const getQuote = async () => {
  const amount = parseAmount(element<HTMLInputElement>("amount").value)
  const answer = await api<{ quoteId: string; totalSendingAmount: number; payloadToSign: string }>("/api/withdrawals", {
    userId: signedUp(),
    amount
  })
  quote = answer
  show("quote-id", answer.quoteId)
  show("quote-total", formatAmount(answer.totalSendingAmount))
  button("confirm").disabled = false
  return `Quote ${answer.quoteId}: ${formatAmount(answer.totalSendingAmount)}. Sign it to withdraw.`
}

const confirm = async () => {
  if (quote === undefined) throw new Error("Get a quote first")
  const id = signedUp()
  // The stamp: @payrail/signer signs payloadToSign byte for byte with the session key.
  const signature = Signer.stamp({ payloadToSign: quote.payloadToSign, privateKey: sessionKey.privateKey })
  button("confirm").disabled = true
  const executed = await api<{ status: string }>("/api/withdrawals/execute", {
    userId: id,
    quoteId: quote.quoteId,
    signature
  })
  show("transaction-status", executed.status)
  for (let attempt = 0; attempt < 120; attempt++) {
    const current = await api<{ status: string; balance: Balance }>("/api/withdrawals/status", {
      userId: id,
      quoteId: quote.quoteId
    })
    show("transaction-status", current.status)
    show("balance", formatAmount(current.balance.amount))
    if (finalStatuses.has(current.status)) return `Withdrawal ${current.status}.`
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  return "The withdrawal is still processing."
}

const step = (id: string, run: () => Promise<string>) => {
  button(id).addEventListener("click", () => {
    status("Working…", "busy")
    run().then(
      (done) => status(done, "done"),
      (error: unknown) => status(error instanceof Error ? error.message : String(error), "error")
    )
  })
}

step("signup", signUp)
step("register", register)
step("login", logIn)
step("quote", getQuote)
step("confirm", confirm)
