/**
 * HttpApi always registers its own decode error for 400 responses; Payrail never sends it (decode failures leave
 * as `INVALID_INPUT`), so the document must not promise it either.
 */
type Json = Record<string, unknown>

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value)

const decodeErrorRef = "#/components/schemas/HttpApiDecodeError"

const stripRef = (schema: unknown): unknown => {
  if (!isObject(schema)) return schema
  if (Array.isArray(schema.anyOf)) {
    const rest = schema.anyOf.filter((entry) => !(isObject(entry) && entry.$ref === decodeErrorRef))
    return rest.length === 1 ? rest[0] : { ...schema, anyOf: rest }
  }
  return schema
}

/** Removes HttpApi's built-in decode error from every response and from the components. */
export const withoutDecodeError = (spec: Json): Json => {
  const paths = isObject(spec.paths) ? spec.paths : {}
  for (const pathItem of Object.values(paths)) {
    if (!isObject(pathItem)) continue
    for (const operation of Object.values(pathItem)) {
      if (!isObject(operation) || !isObject(operation.responses)) continue
      for (const response of Object.values(operation.responses)) {
        if (!isObject(response) || !isObject(response.content)) continue
        const json = response.content["application/json"]
        if (isObject(json)) json.schema = stripRef(json.schema)
      }
    }
  }
  const components = isObject(spec.components) ? spec.components : {}
  if (isObject(components.schemas)) delete components.schemas.HttpApiDecodeError
  return spec
}
