import { Effect } from "effect"
import { InvalidInput } from "../kernel/index.js"
import type { Platform } from "../platforms/index.js"
import type { RelyingParty } from "./Passkeys.js"

/**
 * The WebAuthn relying party of the platform's passkeys, from `embeddedWalletConfig.passkeyRpId` and
 * `passkeyOrigins` (by default `https://<rpId>`); a platform that configured none cannot use passkeys (400 naming
 * the setting).
 */
export const of = (platform: Platform.Platform): Effect.Effect<RelyingParty, InvalidInput.InvalidInput> => {
  const config = platform.config.embeddedWalletConfig
  const rpId = config?.passkeyRpId
  if (rpId === undefined) {
    return Effect.fail(
      InvalidInput.InvalidInput.onField(
        "type",
        "passkeys need the platform's embeddedWalletConfig.passkeyRpId (PATCH /config) before they can be used"
      )
    )
  }
  const origins = config?.passkeyOrigins ?? []
  return Effect.succeed({ rpId, origins: origins.length > 0 ? origins : [`https://${rpId}`] })
}
