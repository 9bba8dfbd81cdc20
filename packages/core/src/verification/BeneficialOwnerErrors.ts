import { Schema } from "effect"

/** No beneficial owner with this id on the caller's platform (another platform's are indistinguishable). */
export class BeneficialOwnerNotFound extends Schema.TaggedError<BeneficialOwnerNotFound>()("BeneficialOwnerNotFound", {
  code: Schema.tag("NOT_FOUND"),
  reason: Schema.String,
  details: Schema.Struct({ beneficialOwnerId: Schema.String })
}) {
  static of(beneficialOwnerId: string): BeneficialOwnerNotFound {
    return new BeneficialOwnerNotFound({ reason: "Beneficial owner not found", details: { beneficialOwnerId } })
  }
}
