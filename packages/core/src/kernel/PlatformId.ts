import * as ResourceId from "./ResourceId.js"

/**
 * `Platform:<uuid>`: the tenant every record belongs to. It lives in the kernel because every context scopes its
 * records and events by it; `Platform.PlatformId` is the same schema.
 */
export const PlatformId = ResourceId.make("Platform")
export type PlatformId = typeof PlatformId.Type
