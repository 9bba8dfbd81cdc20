import type * as HttpApi from "@effect/platform/HttpApi"
import type { HttpApiEndpoint } from "@effect/platform/HttpApiEndpoint"
import type { HttpApiGroup } from "@effect/platform/HttpApiGroup"
import type { PayrailApi } from "@payrail/api"

/** Every group of the contract. */
export type Groups =
  typeof PayrailApi.PayrailApi extends HttpApi.HttpApi<infer _Id, infer G, infer _E, infer _R> ? G : never

/** The endpoints of a group. */
export type EndpointsOf<G> =
  G extends HttpApiGroup<infer _Id, infer Endpoints, infer _Error, infer _R, infer _TopLevel> ? Endpoints : never

/** The parts of an endpoint a caller deals with, Type side. */
export type PartsOf<Endpoint> = [Endpoint] extends [
  HttpApiEndpoint<
    infer _Name,
    infer _Method,
    infer Path,
    infer UrlParams,
    infer Payload,
    infer Headers,
    infer Success,
    infer _Error,
    infer _R,
    infer _RE
  >
]
  ? { path: Path; urlParams: UrlParams; payload: Payload; headers: Headers; success: Success }
  : never
