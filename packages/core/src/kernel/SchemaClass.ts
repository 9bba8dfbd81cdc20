import { ParseResult, Schema } from "effect"

/**
 * `Schema.Class` whose constructor validates its props with a validator compiled once per class.
 *
 * Effect's class constructor validates with `ParseResult.validateSync(constructorSchema)(props)` on every `new`,
 * which computes the type side of the class's struct again (`SchemaAST.typeAST`): a new AST whenever a field has an
 * encoding (a `Schema.DateTimeUtc` timestamp, as every record has), so the parser cache keyed by AST misses and the
 * whole struct's parser is compiled again for each instance (about 150 µs for a customer, 20 times the validation
 * itself). This class validates with the same schema's parser, compiled on the first `new`, and hands the
 * validated props to Effect's constructor with its validation off: the same checks, the same `ParseError`, the
 * same instance. `new X(props, true)` or `{ disableValidation: true }` skips validation, as with `Schema.Class`.
 *
 * A class with a field that has a constructor default (`Schema.optionalWith(…, { default })`) keeps Effect's own
 * constructor, which merges the defaults before it validates.
 */
export const Class =
  <Self = never>(identifier: string) =>
  <Fields extends Schema.Struct.Fields>(
    fields: Fields,
    annotations?: Schema.Annotations.Schema<Self>
  ): ClassOf<Self, Fields> => {
    // `Self` is a type parameter here, so `Schema.Class` answers its conditional type (which tells a class that
    // forgot to name itself); every class made with this one names itself.
    // eslint-disable-next-line no-restricted-properties -- the one place that builds on Schema.Class
    const Base: ClassOf<Self, Fields> = Schema.Class<Self>(identifier)(fields, annotations) as never
    if (Object.values(fields).some(hasConstructorDefault)) return Base
    let validate: ((props: unknown) => unknown) | undefined
    // TypeScript cannot extend a constructor whose instance type is generic: the subclass extends the same value
    // seen as a plain constructor, and is the same class type as `Base` to its users.
    const Constructor: new (props: unknown, options: true) => object = Base as never
    class Validated extends Constructor {
      constructor(props: unknown, options?: Schema.MakeOptions) {
        if (validationDisabled(options)) {
          super(props, true)
          return
        }
        validate ??= ParseResult.validateSync(
          Schema.Struct(fields).annotations({ title: `${identifier} (Constructor)` })
        )
        super(validate(props), true)
      }
    }
    return Validated as never
  }

/** What `Class` makes: the type `Schema.Class` gives a class of `fields` named `Self`. */
export type ClassOf<Self, Fields extends Schema.Struct.Fields> = Schema.Class<
  Self,
  Fields,
  Schema.Struct.Encoded<Fields>,
  Schema.Struct.Context<Fields>,
  Schema.Struct.Constructor<Fields>,
  object,
  object
>

const validationDisabled = (options: Schema.MakeOptions | undefined): boolean =>
  options === true || (typeof options === "object" && options.disableValidation === true)

// Whether the constructor fills the field when it is missing: Effect merges such defaults before it validates.
const hasConstructorDefault = (field: Schema.Struct.Field): boolean => {
  if (!Schema.isPropertySignature(field)) return false
  const ast = field.ast
  return (ast._tag === "PropertySignatureDeclaration" ? ast.defaultValue : ast.to.defaultValue) !== undefined
}
