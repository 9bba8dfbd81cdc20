import { Effect, Option, Ref, Stream } from "effect"
import type { DocumentContentType } from "./Document.js"
import { DocumentFileTooLarge, DocumentFileUnsupported } from "./DocumentErrors.js"

const signatures: ReadonlyArray<readonly [DocumentContentType, ReadonlyArray<number>]> = [
  ["image/jpeg", [0xff, 0xd8, 0xff]],
  ["image/png", [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  ["application/pdf", [0x25, 0x50, 0x44, 0x46, 0x2d]] // "%PDF-"
]

/** How many leading bytes decide a file's type: the longest signature. */
export const headLength = 8

/**
 * The file type whose magic number `head` (the file's first bytes) starts with: JPEG `FF D8 FF`, PNG
 * `89 50 4E 47 0D 0A 1A 0A`, PDF `%PDF-`. `None` for anything else, a renamed text file included, and for a head
 * too short to hold a whole signature.
 */
export const sniff = (head: Uint8Array): Option.Option<DocumentContentType> =>
  Option.fromNullable(
    signatures.find(([, magic]) => head.length >= magic.length && magic.every((byte, i) => head[i] === byte))?.[0]
  )

/** What `inspect` learned of a file once its stream ended. */
export interface Inspected {
  readonly contentType: DocumentContentType
  readonly sizeBytes: number
}

/**
 * Passes `content` through unchanged while checking it: it fails with `DocumentFileUnsupported` as soon as its
 * first bytes (`headLength`, or all of a shorter file) match no accepted type, and with `DocumentFileTooLarge` as
 * soon as more than `maxFileBytes` have passed, so no more than that plus one chunk is ever read. When the stream
 * ends without failing, `result` holds its type and size.
 */
export const inspect = <E>(
  content: Stream.Stream<Uint8Array, E>,
  maxFileBytes: number
): Effect.Effect<{
  readonly checked: Stream.Stream<Uint8Array, E | DocumentFileUnsupported | DocumentFileTooLarge>
  readonly result: Effect.Effect<Option.Option<Inspected>>
}> =>
  Effect.map(Ref.make<Option.Option<Inspected>>(Option.none()), (result) => {
    let size = 0
    let head = new Uint8Array(0)
    let contentType: Option.Option<DocumentContentType> = Option.none()
    const decide = (): Effect.Effect<void, DocumentFileUnsupported> => {
      if (Option.isSome(contentType)) return Effect.void
      contentType = sniff(head)
      return Option.isSome(contentType) ? Effect.void : Effect.fail(DocumentFileUnsupported.of())
    }
    const checkChunk = (
      chunk: Uint8Array
    ): Effect.Effect<Uint8Array, DocumentFileUnsupported | DocumentFileTooLarge> => {
      size += chunk.length
      if (size > maxFileBytes) return Effect.fail(DocumentFileTooLarge.of(maxFileBytes))
      if (Option.isNone(contentType) && head.length < headLength) {
        const joined = new Uint8Array(Math.min(headLength, head.length + chunk.length))
        joined.set(head.subarray(0, joined.length))
        joined.set(chunk.subarray(0, joined.length - head.length), head.length)
        head = joined
        if (head.length >= headLength) return Effect.as(decide(), chunk)
      }
      return Effect.succeed(chunk)
    }
    const checked = Stream.mapEffect(content, checkChunk).pipe(
      Stream.concat(
        Stream.fromEffect(
          Effect.flatMap(Effect.suspend(decide), () =>
            Option.match(contentType, {
              onNone: () => Effect.void,
              onSome: (type) => Ref.set(result, Option.some({ contentType: type, sizeBytes: size }))
            })
          )
        ).pipe(Stream.drain)
      )
    )
    return { checked, result: Ref.get(result) }
  })
