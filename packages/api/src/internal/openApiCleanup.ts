/**
 * HttpApi always registers its own decode error for 400 responses; Payrail never sends it (decode failures leave
 * as `INVALID_INPUT`), so the document must not promise it either. Removing it leaves schemas only it used
 * (`Issue`), so unreferenced component schemas are dropped too.
 */
type Json = Record<string, unknown>

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value)

const decodeErrorRef = "#/components/schemas/HttpApiDecodeError"
const schemaRefPrefix = "#/components/schemas/"

const stripRef = (schema: unknown): unknown => {
  if (!isObject(schema)) return schema
  if (Array.isArray(schema.anyOf)) {
    const rest = schema.anyOf.filter((entry) => !(isObject(entry) && entry.$ref === decodeErrorRef))
    return rest.length === 1 ? rest[0] : { ...schema, anyOf: rest }
  }
  return schema
}

/** Every component schema name referenced by `$ref` anywhere inside `value`. */
const referencedSchemas = (value: unknown, into: Set<string>): Set<string> => {
  if (Array.isArray(value)) for (const item of value) referencedSchemas(item, into)
  else if (isObject(value)) {
    for (const [key, child] of Object.entries(value)) {
      if (key === "$ref" && typeof child === "string" && child.startsWith(schemaRefPrefix)) {
        into.add(child.slice(schemaRefPrefix.length))
      } else referencedSchemas(child, into)
    }
  }
  return into
}

/** Drops component schemas that nothing outside them (transitively) refers to. */
const withoutUnusedSchemas = (spec: Json, schemas: Json): void => {
  const { components: _components, ...outside } = spec
  const reachable = referencedSchemas(outside, new Set())
  const pending = [...reachable]
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    for (const next of referencedSchemas(schemas[name], new Set())) {
      if (!reachable.has(next)) {
        reachable.add(next)
        pending.push(next)
      }
    }
  }
  for (const name of Object.keys(schemas)) if (!reachable.has(name)) delete schemas[name]
}

/** Removes HttpApi's built-in decode error from every response, and the component schemas nothing uses. */
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
  if (isObject(components.schemas)) {
    delete components.schemas.HttpApiDecodeError
    withoutUnusedSchemas(spec, components.schemas)
  }
  return spec
}
