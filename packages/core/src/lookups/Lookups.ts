import { Context, Effect, Layer } from "effect"
import { EndUserTerms } from "../customers/index.js"
import type { Page, StoreFailure } from "../kernel/index.js"
import { type Platform, PlatformRepo } from "../platforms/index.js"
import * as ReceivingInstitutions from "./ReceivingInstitutions.js"
import * as UmaProviders from "./UmaProviders.js"
import * as Vasps from "./Vasps.js"

/**
 * The directories a platform looks things up in (docs/discoveries.md): receiving institutions per corridor, UMA
 * providers, VASPs, and the current End User Terms. The default layer serves the data sets the package ships; an embedder may provide its own.
 */
export class Lookups extends Context.Tag("@payrail/core/Lookups")<
  Lookups,
  {
    /** The institutions of a corridor (both filters optional); an unserved corridor has none. */
    readonly discoveries: (filter: {
      readonly country?: string | undefined
      readonly currency?: string | undefined
    }) => Effect.Effect<ReadonlyArray<ReceivingInstitutions.Discovery>>
    readonly umaProviders: (
      caller: Platform.Platform,
      filter: UmaProviders.UmaProviderFilter,
      page: Page.PageRequest
    ) => Effect.Effect<Page.Page<UmaProviders.UmaProvider>, StoreFailure.StoreFailure>
    readonly vasps: (search: string | undefined, page: Page.PageRequest) => Effect.Effect<Page.Page<Vasps.Vasp>>
    /** The current End User Terms (`EndUserTerms.Current`, read when the layer is built). */
    readonly endUserTerms: Effect.Effect<EndUserTerms.EndUserTermsView>
  }
>() {}

export const layer = Layer.effect(
  Lookups,
  Effect.gen(function* () {
    const platforms = yield* PlatformRepo.PlatformRepo
    // Read once, where the layer is built, as the hosted verification links read their base URL.
    const terms = yield* EndUserTerms.Current
    // The institutions are read on the first discovery, not at start (ReceivingInstitutions.load).
    const institutions = yield* Effect.cached(Effect.promise(ReceivingInstitutions.load))
    return Lookups.of({
      discoveries: (filter) => Effect.map(institutions, (loaded) => ReceivingInstitutions.find(loaded, filter)),
      umaProviders: Effect.fn("Lookups.umaProviders")(function* (caller, filter, page) {
        return UmaProviders.page(caller, yield* platforms.list, filter, page)
      }),
      vasps: (search, page) => Effect.sync(() => Vasps.page(search, page)),
      endUserTerms: Effect.succeed(terms)
    })
  })
)
