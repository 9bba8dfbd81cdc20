import type * as Multipart from "@effect/platform/Multipart"
import { Chunk, Effect, Option, ParseResult, Schema, type Scope, Stream } from "effect"
import { DocumentErrors, type DocumentRequest, FieldError, InvalidInput } from "@payrail/core"

const { DocumentUnreadable } = DocumentErrors

/** A document form read up to its file: the decoded fields and the file, whose bytes have not been read yet. */
export interface DocumentForm<A> {
  readonly fields: A
  readonly file: DocumentRequest.DocumentFile
  /** Whether reading failed because the body passed the size limit (answered 413, not 400). */
  readonly tooLarge: () => boolean
  /** Reads and discards whatever of the body is left, so the connection can carry the answer; never fails. */
  readonly drain: Effect.Effect<void>
}

const describe = (error: Multipart.MultipartError): string => {
  switch (error.reason) {
    case "TooManyParts":
      return "The form has too many parts"
    case "FieldTooLarge":
      return "A form field is too large"
    case "FileTooLarge":
    case "BodyTooLarge":
      return "The request body is too large"
    default:
      return "The multipart body is malformed or truncated"
  }
}

/**
 * Reads a streamed multipart form whose fields come first and whose single `file` part comes last: the fields are
 * decoded with `schema` (every invalid one reported, 400 `INVALID_INPUT`) before any byte of the file is read, and
 * the file's bytes stream on demand. The file's stream fails with `DocumentUnreadable` when the body is malformed or
 * truncated, and when any part follows the file; a form without a `file` part, or with a field twice, fails at once.
 */
export const read = <A, I>(
  parts: Stream.Stream<Multipart.Part, Multipart.MultipartError>,
  schema: Schema.Schema<A, I>
): Effect.Effect<DocumentForm<A>, DocumentErrors.DocumentUnreadable | InvalidInput.InvalidInput, Scope.Scope> =>
  Effect.gen(function* () {
    const pull = yield* Stream.toPull(parts)
    let tooLarge = false
    const unreadable = (error: Multipart.MultipartError) => {
      if (error.reason === "FileTooLarge" || error.reason === "BodyTooLarge") tooLarge = true
      return DocumentUnreadable.of(describe(error))
    }
    // The next chunk of parts, `None` at the end of the form.
    const next = pull.pipe(
      Effect.map(Option.some),
      Effect.catchAll(
        Option.match({ onNone: () => Effect.succeed(Option.none()), onSome: (error) => Effect.fail(unreadable(error)) })
      )
    )
    const drain: Effect.Effect<void> = Effect.ignore(
      Effect.iterate(true, {
        while: (more) => more,
        body: () =>
          Effect.flatMap(next, (chunk) =>
            Option.match(chunk, {
              onNone: () => Effect.succeed(false),
              onSome: (found) =>
                Effect.as(
                  Effect.forEach(
                    found,
                    (part) => (part._tag === "File" ? Effect.ignore(Stream.runDrain(part.content)) : Effect.void),
                    {
                      discard: true
                    }
                  ),
                  true
                )
            })
          )
      })
    )

    const fields = new Map<string, string>()
    let file: Multipart.File | undefined
    while (file === undefined) {
      const chunk = yield* next
      if (Option.isNone(chunk)) return yield* DocumentUnreadable.of("The form has no `file` part")
      const all = Chunk.toReadonlyArray(chunk.value)
      for (const [index, part] of all.entries()) {
        if (part._tag === "File") {
          if (part.key !== "file") return yield* DocumentUnreadable.of("The form's only file part must be `file`")
          if (index < all.length - 1) return yield* DocumentUnreadable.of("The `file` part must be the form's last")
          file = part
        } else if (fields.has(part.key) || part.key === "file") {
          return yield* DocumentUnreadable.of("A form field is repeated, or `file` is not a file")
        } else {
          fields.set(part.key, part.value)
        }
      }
    }
    const decoded = yield* Schema.decodeUnknown(schema, { errors: "all" })(Object.fromEntries(fields)).pipe(
      Effect.mapError((error: ParseResult.ParseError) =>
        InvalidInput.InvalidInput.withErrors(FieldError.fromParseIssue(error.issue))
      )
    )
    // After the file, the form must end: anything else makes the upload unreadable.
    const rest = Effect.flatMap(next, (chunk) =>
      Option.isNone(chunk) ? Effect.void : Effect.fail(DocumentUnreadable.of("The `file` part must be the form's last"))
    )
    const content = Stream.concat(Stream.mapError(file.content, unreadable), Stream.drain(Stream.fromEffect(rest)))
    return { fields: decoded, file: { fileName: file.name, content }, tooLarge: () => tooLarge, drain }
  })
