import { createECDH, randomBytes } from "node:crypto"
import { psql } from "../http/cluster.js"
import type { Database } from "../http/cluster.js"
import type { Client } from "../payments/client.js"
import { Signer } from "../../packages/signer/src/index.js"

/** An embedded wallet of the bench with the session its OTP login granted, and that session's private key. */
export interface Wallet {
  readonly accountId: string
  readonly sessionId: string
  /** The session's public key as the device holds it (uncompressed hex): every stamp of the wallet names it. */
  readonly publicKey: string
  readonly privateKey: string
}

/**
 * `PAYRAIL_WALLET_MASTER_KEY` and `PAYRAIL_WALLET_SIGNER_KEY` for the server (required on PostgreSQL): fresh for
 * every run, never printed.
 */
export const walletKeys = (): Record<string, string> => {
  const signer = createECDH("prime256v1")
  signer.generateKeys()
  return {
    PAYRAIL_WALLET_MASTER_KEY: randomBytes(32).toString("hex"),
    PAYRAIL_WALLET_SIGNER_KEY: signer.getPrivateKey("hex").padStart(64, "0")
  }
}

const field = (body: Record<string, unknown>, name: string): string => {
  const value = body[name]
  if (typeof value !== "string") throw new Error(`the answer has no ${name}: ${JSON.stringify(body)}`)
  return value
}

const firstId = (body: Record<string, unknown>, what: string): string => {
  const data = Array.isArray(body["data"]) ? (body["data"] as Array<Record<string, unknown>>) : []
  const first = data[0]
  if (first === undefined) throw new Error(`no ${what}: ${JSON.stringify(body)}`)
  return field(first, "id")
}

/**
 * One wallet over HTTP: a customer with an email (whose embedded wallet starts with an EMAIL_OTP credential), then
 * an OTP login as a device does it with `@payrail/signer`: challenge, the sandbox code `000000` sealed with a fresh
 * TEK, verify (202) and its retry stamped by the TEK, which becomes the session key.
 */
const seedWallet = async (client: Client, tag: string): Promise<Wallet> => {
  const customer = await client.expect("POST", "/customers", {
    customerType: "INDIVIDUAL",
    fullName: `Wallet ${tag}`,
    email: `wallet-${tag}@example.com`
  })
  const customerId = encodeURIComponent(field(customer, "id"))
  const accountId = firstId(
    await client.expect("GET", `/internal-accounts?customerId=${customerId}&type=EMBEDDED_WALLET`),
    "embedded wallet"
  )
  const credentialId = firstId(
    await client.expect("GET", `/auth/credentials?accountId=${encodeURIComponent(accountId)}`),
    "credential"
  )
  const path = `/auth/credentials/${encodeURIComponent(credentialId)}`
  const challenge = await client.expect("POST", `${path}/challenge`)
  const tek = Signer.generateKeyPair()
  const body = {
    type: field(challenge, "type"),
    encryptedOtpBundle: await Signer.encryptOtpBundle({
      otpEncryptionTargetBundle: field(challenge, "otpEncryptionTargetBundle"),
      otpCode: "000000",
      publicKey: tek.publicKeyCompressed
    })
  }
  const first = await client.send("POST", `${path}/verify`, body)
  if (first.status !== 202) throw new Error(`verify answered ${first.status}: ${JSON.stringify(first.body)}`)
  const headers = Signer.signRetry({ challenge: JSON.stringify(first.body), privateKey: tek.privateKey })
  const session = await client.expect("POST", `${path}/verify`, body, { ...headers })
  return {
    accountId,
    sessionId: field(session, "id"),
    publicKey: tek.publicKeyUncompressed,
    privateKey: tek.privateKey
  }
}

/** Seeds `count` wallets, 8 at a time, each with one session from an OTP login. */
export const seedWallets = async (client: Client, count: number, runId: string): Promise<ReadonlyArray<Wallet>> => {
  const wallets: Array<Wallet> = []
  for (let start = 0; start < count; start += 8) {
    const batch = Array.from({ length: Math.min(8, count - start) }, (_, offset) =>
      seedWallet(client, `${runId}-${start + offset}`)
    )
    wallets.push(...(await Promise.all(batch)))
  }
  return wallets
}

/** A session to revoke in one measured retry, and the wallet whose session key signs it. */
export interface Throwaway {
  readonly wallet: Wallet
  readonly sessionId: string
}

/**
 * `perWallet` more active sessions in every wallet, as rows copied from the wallet's own session (a new id, the same
 * credential, key and expiry) with one `INSERT … SELECT` over the database: OTP logins are limited to 3 per
 * credential per 90 seconds, far too few for a measured run. The copies are what a login of the same device would
 * store; the bench revokes each once. Returned wallet by wallet in turn (wallet 0, 1, …, then the second copy of
 * each), so that consecutive retries act on different wallets.
 */
export const addThrowawaySessions = async (
  database: Database,
  wallets: ReadonlyArray<Wallet>,
  perWallet: number
): Promise<ReadonlyArray<Throwaway>> => {
  const ids = wallets.map((wallet) => `'${wallet.sessionId.replaceAll("'", "''")}'`).join(", ")
  const output = await psql(
    database.url,
    `WITH copies AS (
       SELECT s.id AS source, n, 'Session:' || gen_random_uuid() AS id
       FROM auth_sessions s, generate_series(1, ${perWallet}) n WHERE s.id IN (${ids})
     ), inserted AS (
       INSERT INTO auth_sessions (id, platform_id, account_id, auth_method_id, record, created_at, expires_at, revoked_at)
       SELECT c.id, s.platform_id, s.account_id, s.auth_method_id, s.record || jsonb_build_object('id', c.id),
         s.created_at, s.expires_at, NULL
       FROM copies c JOIN auth_sessions s ON s.id = c.source
       RETURNING id
     )
     SELECT c.n, c.source, c.id FROM copies c JOIN inserted i ON i.id = c.id`
  )
  const order = new Map(wallets.map((wallet, index) => [wallet.sessionId, { wallet, index }]))
  const made = output
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => {
      const [copy = "", source = "", sessionId = ""] = line.split("\t")
      const found = order.get(source)
      if (found === undefined) throw new Error(`a copy of an unknown session ${source}`)
      return { wallet: found.wallet, sessionId, key: Number(copy) * wallets.length + found.index }
    })
  if (made.length !== wallets.length * perWallet) {
    throw new Error(`inserted ${made.length} sessions, expected ${wallets.length * perWallet}`)
  }
  return made.sort((a, b) => a.key - b.key).map(({ wallet, sessionId }) => ({ wallet, sessionId }))
}
