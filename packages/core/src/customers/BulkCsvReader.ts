import { Either } from "effect"

/** One CSV record: the line of the file it starts on (1 for the first line) and its cells, unquoted. */
export interface CsvRecord {
  readonly line: number
  readonly cells: ReadonlyArray<string>
}

/** The most characters one record may hold: an unterminated quote cannot make the reader hold the whole file. */
export const maxRecordLength = 64 * 1024

/**
 * An incremental reader of RFC 4180 CSV (comma separated, `"` quoted, `""` for a quote inside quotes, CRLF or LF
 * line ends), fed the file's bytes chunk by chunk as they arrive, so that no more than one record is ever held.
 *
 * Guarantees: records come out in file order, each with the line it starts on (a quoted cell may span lines);
 * blank lines are skipped but counted; a leading UTF-8 byte order mark is dropped; bytes that are not UTF-8, a
 * character after a closing quote other than a comma or a line end, a quote left open at the end, and a record
 * longer than `maxRecordLength` are refused with the line they are on. A quote inside an unquoted cell is kept as
 * it is, as spreadsheets write it.
 *
 * Hand-written rather than a dependency: the domain depends on `effect` alone, and the well-kept CSV parsers are
 * Node streams, while this one runs on any runtime over an Effect `Stream`.
 */
export interface CsvReader {
  /** The records completed by `bytes`, or the reason the file is malformed. */
  readonly push: (bytes: Uint8Array) => Either.Either<ReadonlyArray<CsvRecord>, string>
  /** The last record, if the file does not end with a line end, or the reason the file is malformed. */
  readonly end: () => Either.Either<ReadonlyArray<CsvRecord>, string>
}

type State = "start" | "unquoted" | "quoted" | "closing"

/** A fresh reader, at the start of a file. */
export const make = (): CsvReader => {
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false })
  let state: State = "start"
  let cells: Array<string> = []
  let cell = ""
  let length = 0
  let line = 1
  let recordLine = 1
  // A CR ended the previous record: an LF right after it belongs to the same line end.
  let afterCr = false
  let failure: string | undefined

  const endCell = () => {
    cells.push(cell)
    cell = ""
  }

  const endRecord = (out: Array<CsvRecord>) => {
    endCell()
    // A blank line is one empty cell: it holds no record.
    if (!(cells.length === 1 && cells[0] === "")) out.push({ line: recordLine, cells })
    cells = []
    length = 0
    state = "start"
  }

  const read = (text: string): Either.Either<ReadonlyArray<CsvRecord>, string> => {
    const out: Array<CsvRecord> = []
    for (let index = 0; index < text.length; index++) {
      const char = text[index] as string
      if (afterCr) {
        afterCr = false
        if (char === "\n") continue
      }
      if (state === "start" && cells.length === 0 && cell === "") recordLine = line
      length += 1
      if (length > maxRecordLength) {
        return Either.left(`line ${recordLine}: a record is longer than ${maxRecordLength} characters`)
      }
      if (state === "quoted") {
        if (char === '"') state = "closing"
        else {
          if (char === "\n") line += 1
          else if (char === "\r" && text[index + 1] !== "\n") line += 1
          cell += char
        }
        continue
      }
      if (state === "closing") {
        if (char === '"') {
          cell += '"'
          state = "quoted"
          continue
        }
        if (char !== "," && char !== "\n" && char !== "\r") {
          return Either.left(`line ${line}: a quoted cell must end with a comma or a line end after its quote`)
        }
      }
      if (char === ",") {
        endCell()
        state = "start"
      } else if (char === "\n" || char === "\r") {
        endRecord(out)
        line += 1
        afterCr = char === "\r"
      } else if (char === '"' && state === "start") {
        state = "quoted"
      } else {
        cell += char
        state = "unquoted"
      }
    }
    return Either.right(out)
  }

  const fail = (reason: string) => {
    failure = reason
    return Either.left(reason)
  }

  return {
    push: (bytes) => {
      if (failure !== undefined) return Either.left(failure)
      let text: string
      try {
        text = decoder.decode(bytes, { stream: true })
      } catch {
        return fail(`line ${line}: the file is not UTF-8 text`)
      }
      return Either.orElse(read(text), fail)
    },
    end: () => {
      if (failure !== undefined) return Either.left(failure)
      let text: string
      try {
        text = decoder.decode()
      } catch {
        return fail(`line ${line}: the file is not UTF-8 text`)
      }
      return Either.flatMap(Either.orElse(read(text), fail), (records) => {
        if (state === "quoted") return fail(`line ${recordLine}: a quoted cell is not closed`)
        if (state === "start" && cells.length === 0 && cell === "") return Either.right(records)
        const last: Array<CsvRecord> = [...records]
        endRecord(last)
        return Either.right(last)
      })
    }
  }
}
