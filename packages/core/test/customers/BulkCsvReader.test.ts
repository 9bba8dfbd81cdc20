import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import * as fc from "fast-check"
import { BulkCsvReader } from "@payrail/core"

const bytes = (text: string) => new TextEncoder().encode(text)

/** Every record of `text` fed in chunks of `size` bytes, or the reason it is refused. */
const readAll = (text: string | Uint8Array, size = 3) => {
  const reader = BulkCsvReader.make()
  const all = typeof text === "string" ? bytes(text) : text
  const records: Array<BulkCsvReader.CsvRecord> = []
  for (let start = 0; start < all.length; start += size) {
    const pushed = reader.push(all.subarray(start, start + size))
    if (Either.isLeft(pushed)) return pushed
    records.push(...pushed.right)
  }
  return Either.map(reader.end(), (last) => [...records, ...last])
}

const quote = (cell: string) => (/[",\r\n]/.test(cell) || cell === "" ? `"${cell.replaceAll('"', '""')}"` : cell)

describe("BulkCsvReader", () => {
  it("reads quoted cells, doubled quotes, commas and line ends inside quotes, CRLF and LF, whatever the chunks", () => {
    const text = '\uFEFFa,b,c\r\n1,"x, ""y""",3\n"multi\nline",,"é ✓"\r\n\r\nlast,row,here'
    for (const size of [1, 2, 5, 1000]) {
      expect(readAll(text, size)).toEqual(
        Either.right([
          { line: 1, cells: ["a", "b", "c"] },
          { line: 2, cells: ["1", 'x, "y"', "3"] },
          { line: 3, cells: ["multi\nline", "", "é ✓"] },
          { line: 6, cells: ["last", "row", "here"] }
        ])
      )
    }
  })

  it("keeps a quote inside an unquoted cell and skips blank lines while counting them", () => {
    expect(readAll('5" disk,ok\n\n\nnext,x\n')).toEqual(
      Either.right([
        { line: 1, cells: ['5" disk', "ok"] },
        { line: 4, cells: ["next", "x"] }
      ])
    )
  })

  it("refuses an open quote at the end, text after a closing quote, bytes that are not UTF-8, a huge record", () => {
    expect(readAll('a,b\n"open,x\n')).toEqual(Either.left("line 2: a quoted cell is not closed"))
    expect(readAll('a,b\n"x"y,z\n')).toEqual(
      Either.left("line 2: a quoted cell must end with a comma or a line end after its quote")
    )
    expect(readAll(Uint8Array.from([0x61, 0x2c, 0xff, 0x0a]))).toEqual(
      Either.left("line 1: the file is not UTF-8 text")
    )
    expect(Either.isLeft(readAll(`"${"x".repeat(BulkCsvReader.maxRecordLength + 1)}"`, 4096))).toBe(true)
  })

  it("reads back what a writer quoting as RFC 4180 wrote, for any cells and any chunk size", () => {
    const cell = fc.string({ unit: fc.constantFrom("a", "b", " ", ",", '"', "\n", "\r\n", "é", "✓") })
    const row = fc.array(cell, { minLength: 2, maxLength: 4 })
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 5 }), fc.integer({ min: 1, max: 7 }), (rows, size) => {
        const text = rows.map((cells) => cells.map(quote).join(",")).join("\r\n")
        const read = readAll(text, size)
        expect(Either.map(read, (records) => records.map((record) => record.cells))).toEqual(Either.right(rows))
      })
    )
  })
})
