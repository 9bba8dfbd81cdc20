import { Context, type Effect } from "effect"
import type { StoreFailure } from "../kernel/index.js"
import type { Platform } from "./Platform.js"

/**
 * What follows a platform's `webhookEndpoint` being set or changed to `url` (not re-sent unchanged, not removed):
 * `PlatformSettings.update` calls it inside the unit of work of the change, so it happens exactly when the change
 * commits. The events context implements it (`WebhookTestJob.endpointConfiguredLayer`: one `TEST` webhook to the new
 * URL), so platforms need not depend on events.
 */
export class WebhookEndpointConfigured extends Context.Tag("@payrail/core/WebhookEndpointConfigured")<
  WebhookEndpointConfigured,
  { readonly configured: (platform: Platform, url: string) => Effect.Effect<void, StoreFailure.StoreFailure> }
>() {}
