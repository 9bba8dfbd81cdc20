const encoder = new TextEncoder()

export const encodeUtf8 = (text: string): Uint8Array => encoder.encode(text)

const fatalDecoder: { decode: (bytes: Uint8Array) => string } | undefined =
  typeof globalThis.TextDecoder === "function" ? new globalThis.TextDecoder("utf-8", { fatal: true, ignoreBOM: true }) : undefined

const continuation = (bytes: Uint8Array, at: number): number => {
  const b = bytes[at]
  return b !== undefined && (b & 0xc0) === 0x80 ? b & 0x3f : -1
}

/**
 * Strict UTF-8 decoding without TextDecoder (absent on some React Native engines): rejects overlong forms,
 * surrogates, code points above U+10FFFF and truncated sequences. Returns undefined on malformed input.
 */
export const decodeUtf8Portable = (bytes: Uint8Array): string | undefined => {
  let out = ""
  let i = 0
  while (i < bytes.length) {
    const b0 = bytes[i] as number
    let cp: number
    let size: number
    if (b0 < 0x80) {
      cp = b0
      size = 1
    } else if (b0 >= 0xc2 && b0 <= 0xdf) {
      const c1 = continuation(bytes, i + 1)
      if (c1 < 0) return undefined
      cp = ((b0 & 0x1f) << 6) | c1
      size = 2
    } else if (b0 >= 0xe0 && b0 <= 0xef) {
      const c1 = continuation(bytes, i + 1)
      const c2 = continuation(bytes, i + 2)
      if (c1 < 0 || c2 < 0) return undefined
      cp = ((b0 & 0x0f) << 12) | (c1 << 6) | c2
      if (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff)) return undefined
      size = 3
    } else if (b0 >= 0xf0 && b0 <= 0xf4) {
      const c1 = continuation(bytes, i + 1)
      const c2 = continuation(bytes, i + 2)
      const c3 = continuation(bytes, i + 3)
      if (c1 < 0 || c2 < 0 || c3 < 0) return undefined
      cp = ((b0 & 0x07) << 18) | (c1 << 12) | (c2 << 6) | c3
      if (cp < 0x10000 || cp > 0x10ffff) return undefined
      size = 4
    } else {
      return undefined
    }
    out += String.fromCodePoint(cp)
    i += size
  }
  return out
}

export const decodeUtf8 = (bytes: Uint8Array): string | undefined => {
  if (fatalDecoder === undefined) return decodeUtf8Portable(bytes)
  try {
    return fatalDecoder.decode(bytes)
  } catch {
    return undefined
  }
}
