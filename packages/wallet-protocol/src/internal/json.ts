import { err, ok, type Result } from "../Result.js"

export type JsonObject = Readonly<Record<string, unknown>>

export const parseJson = (text: string, field?: string): Result<unknown> => {
  try {
    return ok(JSON.parse(text) as unknown)
  } catch {
    return err("BadJson", "not valid JSON", field)
  }
}

export const asJsonObject = (value: unknown, field?: string): Result<JsonObject> =>
  typeof value === "object" && value !== null && !Array.isArray(value)
    ? ok(value as JsonObject)
    : err("BadJson", "JSON value is not an object", field)

export const parseJsonObject = (text: string, field?: string): Result<JsonObject> => {
  const parsed = parseJson(text, field)
  return parsed.ok ? asJsonObject(parsed.value, field) : parsed
}

export const stringField = (object: JsonObject, name: string): Result<string> => {
  const value = object[name]
  return typeof value === "string" ? ok(value) : err("BadField", "missing or not a string", name)
}
