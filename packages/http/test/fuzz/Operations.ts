/*
 * The fuzz reads what to attack from the served OpenAPI document, so an operation added to the API is fuzzed the
 * day it is served, with no change here.
 */

/** A JSON Schema node of the document (or a part of one). */
export type Schema = Readonly<Record<string, unknown>>

/** A path, query or header parameter of an operation. */
export interface Parameter {
  readonly name: string
  readonly in: "path" | "query" | "header"
  readonly required: boolean
  readonly schema: Schema
}

/** One operation of the document, with its `$ref`s left for `resolve`. */
export interface Operation {
  readonly operationId: string
  readonly method: string
  /** The path template below the mount point (`/2025-10-13/customers/{customerId}`). */
  readonly template: string
  readonly parameters: ReadonlyArray<Parameter>
  /** The `application/json` request body schema, when the operation takes a body. */
  readonly body: Schema | undefined
  /** Whether the operation requires credentials. */
  readonly secured: boolean
  /** Whether those credentials are an agent's bearer token (`AgentAuth`) rather than an API token. */
  readonly bearer: boolean
}

/** The operations of a document and the helpers that read its schemas. */
export interface Api {
  readonly operations: ReadonlyArray<Operation>
  /** Follows `$ref`s inside the document until a schema without one. */
  readonly resolve: (schema: Schema) => Schema
  /** The resource type of an id schema (`Customer` for `^Customer:<uuid>$`), if the schema is one. */
  readonly resourceTypeOf: (schema: Schema) => string | undefined
  /** Every resource type an id schema of the document names. */
  readonly resourceTypes: ReadonlyArray<string>
  /** Every string literal (`enum`, `const`) of the document: values the document itself publishes. */
  readonly literals: ReadonlySet<string>
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const methods = ["get", "put", "post", "delete", "patch"] as const

const collectLiterals = (value: unknown, into: Set<string>): Set<string> => {
  if (Array.isArray(value)) for (const item of value) collectLiterals(item, into)
  else if (isObject(value)) {
    for (const [key, child] of Object.entries(value)) {
      if (key === "enum" && Array.isArray(child)) {
        for (const item of child) if (typeof item === "string") into.add(item)
      } else if (key === "const" && typeof child === "string") into.add(child)
      else collectLiterals(child, into)
    }
  }
  return into
}

const idPattern = /^\^([A-Za-z]+):\[0-9a-f\]\{8\}-/

/** Reads the operations of an OpenAPI 3.1 document. */
export const fromDocument = (document: Record<string, unknown>): Api => {
  const resolve = (schema: Schema): Schema => {
    let current = schema
    for (let depth = 0; depth < 32 && typeof current["$ref"] === "string"; depth++) {
      const target = (current["$ref"] as string)
        .replace(/^#\//, "")
        .split("/")
        .reduce<unknown>((node, key) => (isObject(node) ? node[key] : undefined), document)
      if (!isObject(target)) return {}
      current = target
    }
    return current
  }
  const resourceTypeOf = (schema: Schema): string | undefined => {
    const resolved = resolve(schema)
    const pattern = resolved["pattern"]
    return typeof pattern === "string" ? idPattern.exec(pattern)?.[1] : undefined
  }
  const operations: Array<Operation> = []
  const paths = isObject(document["paths"]) ? document["paths"] : {}
  for (const [template, item] of Object.entries(paths)) {
    if (!isObject(item)) continue
    for (const method of methods) {
      const operation = item[method]
      if (!isObject(operation)) continue
      const parameters = (Array.isArray(operation["parameters"]) ? operation["parameters"] : [])
        .filter(isObject)
        .flatMap((parameter): Array<Parameter> => {
          const where = parameter["in"]
          if (where !== "path" && where !== "query" && where !== "header") return []
          return [
            {
              name: String(parameter["name"]),
              in: where,
              required: parameter["required"] === true,
              schema: isObject(parameter["schema"]) ? parameter["schema"] : {}
            }
          ]
        })
      const requestBody = operation["requestBody"]
      const content = isObject(requestBody) && isObject(requestBody["content"]) ? requestBody["content"] : {}
      const json = content["application/json"]
      const security = operation["security"]
      operations.push({
        operationId: typeof operation["operationId"] === "string" ? operation["operationId"] : `${method} ${template}`,
        method: method.toUpperCase(),
        template,
        parameters,
        body: isObject(json) && isObject(json["schema"]) ? json["schema"] : undefined,
        secured: Array.isArray(security) && security.length > 0,
        bearer: Array.isArray(security) && security.some((scheme) => isObject(scheme) && "AgentAuth" in scheme)
      })
    }
  }
  const schemas = isObject(document["components"]) && isObject(document["components"]["schemas"])
  const resourceTypes = new Set<string>()
  if (schemas) {
    for (const schema of Object.values(
      (document["components"] as Record<string, Record<string, unknown>>)["schemas"]!
    )) {
      if (isObject(schema)) {
        const type = resourceTypeOf(schema)
        if (type !== undefined) resourceTypes.add(type)
      }
    }
  }
  return {
    operations,
    resolve,
    resourceTypeOf,
    resourceTypes: [...resourceTypes].sort(),
    literals: collectLiterals(document, new Set())
  }
}
