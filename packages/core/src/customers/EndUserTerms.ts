import { Context, Schema } from "effect"

/**
 * The End User Terms customers accept (`GET /customers/end-user-terms`, the reference API's shape): the current
 * version and where it is published. The operator of a deployment publishes its own terms and provides them here
 * (`Layer.succeed(EndUserTerms.Current, {...})`); the default names version `V1` at the project's address.
 */
export const EndUserTermsView = Schema.Struct({
  version: Schema.String,
  url: Schema.String
}).annotations({ identifier: "EndUserTerms" })
export type EndUserTermsView = typeof EndUserTermsView.Type

/** The terms a deployment answers until its operator sets its own. */
export const defaultTerms: EndUserTermsView = { version: "V1", url: "https://payrail.dev/legal/end-user-terms/V1" }

/** The current terms of this deployment (the reference server reads them from `PAYRAIL_END_USER_TERMS_*`). */
export class Current extends Context.Reference<Current>()("@payrail/core/EndUserTerms/Current", {
  defaultValue: (): EndUserTermsView => defaultTerms
}) {}
