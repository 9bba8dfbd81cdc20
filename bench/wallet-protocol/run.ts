import { createPublicKey, verify } from "node:crypto"
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import {
  Base58Check,
  CredentialBundle,
  Encoding,
  Hpke,
  OtpBundle,
  P256,
  Result,
  Stamp,
  TargetBundle
} from "../../packages/wallet-protocol/src/index.js"
import { StampVerifier } from "../../packages/wallet-auth/src/index.js"

const walletAuthDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../packages/wallet-auth")

/**
 * bench/ is not a workspace package, so `effect` is reached through @payrail/wallet-auth's own dependency, by its
 * ESM entry, which is the module instance the wallet-auth sources use.
 */
const importEffect = async (): Promise<typeof import("effect")> => {
  const require = createRequire(path.join(walletAuthDir, "package.json"))
  const manifestPath = require.resolve("effect/package.json")
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { exports: { ".": { import: string } } }
  return (await import(
    pathToFileURL(path.join(path.dirname(manifestPath), manifest.exports["."].import)).href
  )) as typeof import("effect")
}

const ROUND_MILLIS = 300
const ROUNDS = 9

type Op = () => unknown
type AsyncOp = () => Promise<unknown>

// Every op costs tens of microseconds or more, so reading the clock after each call adds well under 1%.
const measureRound = (op: Op): number => {
  let count = 0
  const start = performance.now()
  let elapsed = 0
  while (elapsed < ROUND_MILLIS) {
    op()
    count++
    elapsed = performance.now() - start
  }
  return (count * 1000) / elapsed
}

const measureRoundAsync = async (op: AsyncOp): Promise<number> => {
  let count = 0
  const start = performance.now()
  let elapsed = 0
  while (elapsed < ROUND_MILLIS) {
    await op()
    count++
    elapsed = performance.now() - start
  }
  return (count * 1000) / elapsed
}

/** Codec calls cost well under a microsecond, so each timed op runs a batch of them to keep clock reads negligible. */
const CODEC_BATCH = 200
const batched =
  (op: Op): Op =>
  () => {
    for (let i = 0; i < CODEC_BATCH; i++) op()
  }

const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? 0
}

/**
 * Runs the ops in interleaved rounds (A, B, C, A, B, C, …) so that load from other processes hits all of them
 * alike, and returns every round's figure per op.
 */
const compare = (ops: Readonly<Record<string, Op>>): Record<string, Array<number>> => {
  const samples: Record<string, Array<number>> = {}
  for (const name of Object.keys(ops)) samples[name] = []
  for (const op of Object.values(ops)) measureRound(op)
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, op] of Object.entries(ops)) samples[name]?.push(measureRound(op))
  }
  return samples
}

/** The median over rounds of `a / b` measured in the same round: robust to load that drifts between rounds. */
const pairedRatio = (a: ReadonlyArray<number>, b: ReadonlyArray<number>): number =>
  median(a.map((value, round) => value / (b[round] ?? Number.POSITIVE_INFINITY)))

/** {@link compare} for asynchronous ops. */
const compareAsync = async (ops: Readonly<Record<string, AsyncOp>>): Promise<Record<string, Array<number>>> => {
  const samples: Record<string, Array<number>> = {}
  for (const name of Object.keys(ops)) samples[name] = []
  for (const op of Object.values(ops)) await measureRoundAsync(op)
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, op] of Object.entries(ops)) samples[name]?.push(await measureRoundAsync(op))
  }
  return samples
}

const format = (opsPerSecond: number): string => `${Math.round(opsPerSecond).toLocaleString("en-US").padStart(9)} ops/s`
const line = (label: string, opsPerSecond: number, note = ""): void => {
  console.log(`  ${label.padEnd(68)} ${format(opsPerSecond)}${note === "" ? "" : `  ${note}`}`)
}

const jwkCoordinates = (publicKey: P256.PublicKey): { x: string; y: string } => {
  const bytes = Buffer.from(publicKey.uncompressed)
  return { x: bytes.subarray(1, 33).toString("base64url"), y: bytes.subarray(33, 65).toString("base64url") }
}

const main = async (): Promise<void> => {
  const { Effect } = await importEffect()
  const session = P256.generateKeyPair()
  const payloadToSign = JSON.stringify({
    requestId: "Request:019542f5-b3e7-1d02-0000-000000000006",
    operation: "QUOTE_EXECUTE",
    accountId: "InternalAccount:019542f5-b3e7-1d02-0000-000000000002",
    bodySha256: "aa85b3a8088c63f34b9337455d5424cefdda681d6a83a08737952ede2020e85d"
  })
  const stamp = Result.getOrThrow(Stamp.create({ payload: payloadToSign, privateKey: session.privateKey }))
  const input = { stamp, payloadToSign, sessionPublicKeys: [session.publicKey.compressedHex] }

  const keyObject = createPublicKey({
    key: { kty: "EC", crv: "P-256", ...jwkCoordinates(session.publicKey) },
    format: "jwk"
  })
  const der = Result.getOrThrow(Stamp.decode(stamp)).signature.der
  const payloadBytes = Buffer.from(payloadToSign, "utf8")

  const verifier = Effect.runSync(Effect.provide(StampVerifier.StampVerifier, StampVerifier.layer))
  const webVerifier = Effect.runSync(Effect.provide(StampVerifier.StampVerifier, StampVerifier.layerWebCrypto))
  const serverVerify = verifier.verify(input)
  const batch = 20
  const serverBatch = Effect.forEach(Array.from({ length: batch }), () => serverVerify, { discard: true })
  Effect.runSync(serverVerify)

  console.log(
    `Node ${process.version}; medians of ${ROUNDS} interleaved rounds of ${ROUND_MILLIS} ms; ratios paired per round`
  )
  console.log(`\nStamp verification (ECDSA P-256, ${payloadBytes.length}-byte payloadToSign, high-S allowed)`)
  const sync = compare({
    bare: () => verify("sha256", payloadBytes, { key: keyObject, dsaEncoding: "der" }, der),
    inOneEffect: () => Effect.runSync(serverBatch),
    runSyncEach: () => Effect.runSync(serverVerify)
  })
  const bare = sync["bare"] ?? []
  const inOneEffect = (sync["inOneEffect"] ?? []).map((opsPerSecond) => opsPerSecond * batch)
  const runSyncEach = sync["runSyncEach"] ?? []
  const ofBare = (samples: ReadonlyArray<number>) => `${(pairedRatio(samples, bare) * 100).toFixed(1)}% of bare`
  line("bare node:crypto verify (DER decoded, KeyObject cached)", median(bare))
  line("StampVerifier.verify, whole stamp, inside one Effect (server path)", median(inOneEffect), ofBare(inOneEffect))
  line("StampVerifier.verify, whole stamp, one Effect.runSync per stamp", median(runSyncEach), ofBare(runSyncEach))
  const others = await compareAsync({
    webCrypto: () => Effect.runPromise(webVerifier.verify(input)),
    pureJs: async () => Stamp.verify({ stamp, payload: payloadToSign, publicKey: session.publicKey })
  })
  line("StampVerifier.layerWebCrypto, one Effect.runPromise per stamp", median(others["webCrypto"] ?? []))
  line("Stamp.verify in pure JavaScript (@noble/curves), for comparison", median(others["pureJs"] ?? []))

  console.log("\nHPKE (DHKEM P-256, HKDF-SHA256, AES-256-GCM on WebCrypto)")
  const signer = P256.generateKeyPair()
  const target = P256.generateKeyPair()
  const targetBundle = Result.getOrThrow(
    TargetBundle.createOtpTarget({ targetPublicKey: target.publicKey, signerPrivateKey: signer.privateKey })
  )
  const targetPublicKey = Result.getOrThrow(
    TargetBundle.targetPublicKey(Result.getOrThrow(TargetBundle.decode(targetBundle)))
  )
  const encryptedOtpBundle = Result.getOrThrow(
    await OtpBundle.seal({ targetPublicKey, otpCode: "000000", publicKey: session.publicKey.compressedHex })
  )
  const recipient = Result.getOrThrow(await Hpke.importRecipientKey(target.privateKey))
  const client = P256.generateKeyPair()
  const credentialBundle = Result.getOrThrow(
    await CredentialBundle.seal({ plaintext: session.privateKey, recipientPublicKey: client.publicKey })
  )
  const clientRecipient = Result.getOrThrow(await Hpke.importRecipientKey(client.privateKey))
  const hpke = await compareAsync({
    otpImported: () => OtpBundle.open({ encryptedOtpBundle, recipient }),
    otpRawKey: () => OtpBundle.open({ encryptedOtpBundle, recipient: target.privateKey }),
    credential: () => CredentialBundle.open({ bundle: credentialBundle, recipient: clientRecipient }),
    seal: () => CredentialBundle.seal({ plaintext: session.privateKey, recipientPublicKey: client.publicKey })
  })
  line("OtpBundle.open, target key imported once", median(hpke["otpImported"] ?? []))
  line("OtpBundle.open, raw target key imported per call (OtpTargets.open)", median(hpke["otpRawKey"] ?? []))
  line("CredentialBundle.open (compressed enc), key imported once", median(hpke["credential"] ?? []))
  line("CredentialBundle.seal (SessionKeys.seal)", median(hpke["seal"] ?? []))

  const wire = {
    key: session.publicKey.uncompressed,
    keyHex: session.publicKey.uncompressedHex,
    stampJson: Result.getOrThrow(Encoding.fromBase64url(stamp)),
    stamp,
    bundlePayload: Result.getOrThrow(Base58Check.decode(credentialBundle)),
    credentialBundle
  }
  console.log(
    `\nEncodings (per call; ${CODEC_BATCH} calls per timed op): ${wire.key.length}-byte key as hex, ` +
      `${wire.stampJson.length}-byte stamp JSON as base64url, ${wire.bundlePayload.length}-byte credential payload as base58check`
  )
  const codecs = compare({
    hexEncodeBuffer: batched(() => Buffer.from(wire.key.buffer, wire.key.byteOffset, wire.key.length).toString("hex")),
    hexEncode: batched(() => Encoding.toHex(wire.key)),
    hexDecodeBuffer: batched(() => Buffer.from(wire.keyHex, "hex")),
    hexDecode: batched(() => Encoding.fromHex(wire.keyHex)),
    b64EncodeBuffer: batched(() =>
      Buffer.from(wire.stampJson.buffer, wire.stampJson.byteOffset, wire.stampJson.length).toString("base64url")
    ),
    b64Encode: batched(() => Encoding.toBase64url(wire.stampJson)),
    b64DecodeBuffer: batched(() => Buffer.from(wire.stamp, "base64url")),
    b64Decode: batched(() => Encoding.fromBase64url(wire.stamp)),
    b58Encode: batched(() => Base58Check.encode(wire.bundlePayload)),
    b58Decode: batched(() => Base58Check.decode(wire.credentialBundle)),
    stampDecode: batched(() => Stamp.decode(wire.stamp))
  })
  const perCall = (name: string) => (codecs[name] ?? []).map((opsPerSecond) => opsPerSecond * CODEC_BATCH)
  const ofBuffer = (name: string, buffer: string) =>
    `${(pairedRatio(perCall(name), perCall(buffer)) * 100).toFixed(1)}% of Buffer`
  line("Encoding.toHex (65-byte key)", median(perCall("hexEncode")), ofBuffer("hexEncode", "hexEncodeBuffer"))
  line("Encoding.fromHex (130 hex digits)", median(perCall("hexDecode")), ofBuffer("hexDecode", "hexDecodeBuffer"))
  line("Encoding.toBase64url (stamp JSON)", median(perCall("b64Encode")), ofBuffer("b64Encode", "b64EncodeBuffer"))
  line(
    "Encoding.fromBase64url (stamp header value)",
    median(perCall("b64Decode")),
    ofBuffer("b64Decode", "b64DecodeBuffer")
  )
  line("Base58Check.encode (81-byte credential payload)", median(perCall("b58Encode")))
  line("Base58Check.decode (credential bundle text)", median(perCall("b58Decode")))
  line("Stamp.decode (base64url, JSON, hex, DER; no curve arithmetic)", median(perCall("stampDecode")))
}

await main()
