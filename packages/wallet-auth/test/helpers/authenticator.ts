import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from "node:crypto"

/** The subset of CBOR that WebAuthn attestation objects and COSE keys use. */
export type Cbor = number | string | Uint8Array | ReadonlyArray<Cbor> | ReadonlyMap<Cbor, Cbor>

const head = (major: number, length: number): Array<number> => {
  if (length < 24) return [(major << 5) | length]
  if (length < 0x100) return [(major << 5) | 24, length]
  if (length < 0x10000) return [(major << 5) | 25, length >> 8, length & 255]
  return [(major << 5) | 26, (length >>> 24) & 255, (length >> 16) & 255, (length >> 8) & 255, length & 255]
}

/** Encodes a value as definite-length CBOR (RFC 8949). */
export const cbor = (value: Cbor): Uint8Array => {
  if (typeof value === "number") return Uint8Array.from(value >= 0 ? head(0, value) : head(1, -1 - value))
  if (typeof value === "string") {
    const bytes = Buffer.from(value, "utf8")
    return Buffer.concat([Uint8Array.from(head(3, bytes.length)), bytes])
  }
  if (value instanceof Uint8Array) return Buffer.concat([Uint8Array.from(head(2, value.length)), value])
  if (value instanceof Map) {
    const entries = [...value.entries()].flatMap(([k, v]) => [cbor(k), cbor(v)])
    return Buffer.concat([Uint8Array.from(head(5, value.size)), ...entries])
  }
  const items = (value as ReadonlyArray<Cbor>).map(cbor)
  return Buffer.concat([Uint8Array.from(head(4, items.length)), ...items])
}

export const FLAG_UP = 0x01
export const FLAG_UV = 0x04
export const FLAG_AT = 0x40

const b64url = (bytes: Uint8Array): string => Buffer.from(bytes).toString("base64url")
const sha256 = (data: Uint8Array | string): Buffer => createHash("sha256").update(data).digest()
const counterBytes = (counter: number): Buffer => {
  const out = Buffer.alloc(4)
  out.writeUInt32BE(counter)
  return out
}

/** What the device's authenticator is asked to do, and what to get wrong on purpose. */
export interface Ceremony {
  readonly challenge: string
  readonly origin: string
  readonly rpId: string
  readonly type?: string
  readonly flags?: number
  readonly counter?: number
}

/**
 * A software WebAuthn authenticator with one ES256 credential: it builds `clientDataJSON`, authenticator data with
 * flags and a signature counter, a "none" attestation object in CBOR, and signs assertions with node:crypto.
 */
export class SoftwareAuthenticator {
  readonly credentialId: Uint8Array
  readonly cosePublicKey: Uint8Array
  private readonly privateKey: KeyObject
  private readonly countsSignatures: boolean
  private counter = 0

  constructor(options: { readonly credentialId?: Uint8Array; readonly countsSignatures?: boolean } = {}) {
    this.credentialId = options.credentialId ?? randomBytes(16)
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" })
    this.privateKey = privateKey
    const jwk = publicKey.export({ format: "jwk" })
    this.cosePublicKey = cbor(
      new Map<Cbor, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x ?? "", "base64url")],
        [-3, Buffer.from(jwk.y ?? "", "base64url")]
      ])
    )
    this.countsSignatures = options.countsSignatures ?? true
  }

  private clientData(ceremony: Ceremony, defaultType: string): Buffer {
    return Buffer.from(
      JSON.stringify({
        type: ceremony.type ?? defaultType,
        challenge: b64url(Buffer.from(ceremony.challenge, "utf8")),
        origin: ceremony.origin,
        crossOrigin: false
      })
    )
  }

  /** A registration (`navigator.credentials.create`) in the API's `attestation` shape. */
  register(ceremony: Ceremony, attStmt: ReadonlyMap<Cbor, Cbor> = new Map()) {
    const credentialIdLength = Buffer.alloc(2)
    credentialIdLength.writeUInt16BE(this.credentialId.length)
    const authData = Buffer.concat([
      sha256(ceremony.rpId),
      Uint8Array.of(ceremony.flags ?? FLAG_UP | FLAG_UV | FLAG_AT),
      counterBytes(ceremony.counter ?? 0),
      new Uint8Array(16),
      credentialIdLength,
      this.credentialId,
      this.cosePublicKey
    ])
    const attestationObject = cbor(
      new Map<Cbor, Cbor>([
        ["fmt", "none"],
        ["attStmt", attStmt],
        ["authData", authData]
      ])
    )
    return {
      credentialId: b64url(this.credentialId),
      clientDataJson: b64url(this.clientData(ceremony, "webauthn.create")),
      attestationObject: b64url(attestationObject),
      transports: ["internal", "hybrid"]
    }
  }

  /** An assertion (`navigator.credentials.get`) in the API's `assertion` shape; the counter advances by one. */
  assert(ceremony: Ceremony) {
    if (this.countsSignatures) this.counter += 1
    const authenticatorData = Buffer.concat([
      sha256(ceremony.rpId),
      Uint8Array.of(ceremony.flags ?? FLAG_UP | FLAG_UV),
      counterBytes(ceremony.counter ?? this.counter)
    ])
    const clientDataJson = this.clientData(ceremony, "webauthn.get")
    const signature = sign("sha256", Buffer.concat([authenticatorData, sha256(clientDataJson)]), this.privateKey)
    return {
      credentialId: b64url(this.credentialId),
      clientDataJson: b64url(clientDataJson),
      authenticatorData: b64url(authenticatorData),
      signature: b64url(signature),
      userHandle: null
    }
  }
}
