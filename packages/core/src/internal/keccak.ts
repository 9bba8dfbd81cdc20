const MASK = (1n << 64n) - 1n

// Round constants and rotation offsets derived as in FIPS 202 §3.2, so no table can carry a typo.
const roundConstants: ReadonlyArray<bigint> = (() => {
  const constants: Array<bigint> = []
  let lfsr = 1
  for (let round = 0; round < 24; round++) {
    let constant = 0n
    for (let j = 0; j < 7; j++) {
      if (lfsr & 1) constant |= 1n << BigInt((1 << j) - 1)
      lfsr = lfsr & 0x80 ? ((lfsr << 1) ^ 0x71) & 0xff : (lfsr << 1) & 0xff
    }
    constants.push(constant)
  }
  return constants
})()

const rotationOffsets: ReadonlyArray<number> = (() => {
  const offsets = new Array<number>(25).fill(0)
  let [x, y] = [1, 0]
  for (let t = 0; t < 24; t++) {
    offsets[x + 5 * y] = (((t + 1) * (t + 2)) / 2) % 64
    ;[x, y] = [y, (2 * x + 3 * y) % 5]
  }
  return offsets
})()

const rotl = (value: bigint, shift: number): bigint =>
  shift === 0 ? value : ((value << BigInt(shift)) | (value >> BigInt(64 - shift))) & MASK

const permute = (state: Array<bigint>): void => {
  const c = new Array<bigint>(5)
  const b = new Array<bigint>(25)
  for (const constant of roundConstants) {
    for (let x = 0; x < 5; x++) c[x] = state[x]! ^ state[x + 5]! ^ state[x + 10]! ^ state[x + 15]! ^ state[x + 20]!
    for (let x = 0; x < 5; x++) {
      const d = c[(x + 4) % 5]! ^ rotl(c[(x + 1) % 5]!, 1)
      for (let y = 0; y < 25; y += 5) state[x + y] = state[x + y]! ^ d
    }
    for (let x = 0; x < 5; x++) {
      for (let y = 0; y < 5; y++)
        b[y + 5 * ((2 * x + 3 * y) % 5)] = rotl(state[x + 5 * y]!, rotationOffsets[x + 5 * y]!)
    }
    for (let y = 0; y < 25; y += 5) {
      for (let x = 0; x < 5; x++) state[x + y] = b[x + y]! ^ (~b[((x + 1) % 5) + y]! & MASK & b[((x + 2) % 5) + y]!)
    }
    state[0] = state[0]! ^ constant
  }
}

// A 256-bit sponge over Keccak-f[1600] (rate 136 bytes); `domain` is the padding's first byte.
const sponge256 = (data: Uint8Array, domain: number): Uint8Array => {
  const rate = 136
  const padded = new Uint8Array(Math.floor(data.length / rate) * rate + rate)
  padded.set(data)
  padded[data.length] = domain
  padded[padded.length - 1] = padded[padded.length - 1]! | 0x80
  const state = new Array<bigint>(25).fill(0n)
  for (let offset = 0; offset < padded.length; offset += rate) {
    for (let lane = 0; lane < rate / 8; lane++) {
      let value = 0n
      for (let i = 7; i >= 0; i--) value = (value << 8n) | BigInt(padded[offset + lane * 8 + i]!)
      state[lane] = state[lane]! ^ value
    }
    permute(state)
  }
  const out = new Uint8Array(32)
  for (let i = 0; i < 32; i++) out[i] = Number((state[i >> 3]! >> BigInt((i & 7) * 8)) & 0xffn)
  return out
}

/** Keccak-256 as Ethereum uses it (original Keccak padding `0x01`), e.g. for EIP-55 checksums. */
export const keccak256 = (data: Uint8Array): Uint8Array => sponge256(data, 0x01)

/** SHA3-256 (FIPS 202, padding `0x06`): the same permutation, exposed so tests can compare with other SHA3s. */
export const sha3_256 = (data: Uint8Array): Uint8Array => sponge256(data, 0x06)
