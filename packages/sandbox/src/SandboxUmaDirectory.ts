import { Effect, Layer, Option } from "effect"
import { SandboxUmaAddresses, UmaDirectory, UmaErrors } from "@payrail/core"

/** The payer data every sandbox counterparty lists: the payer's full name, optional. */
export const requiredPayerDataFields: UmaDirectory.UmaReceiver["requiredPayerDataFields"] = [
  { name: "FULL_NAME", mandatory: false }
]

/**
 * The payee data a sandbox address's platform shares with the sender (its `receiverCustomerInfo`): the receiver's
 * full name, `Sandbox Receiver <behavior>` (for `$success.usd@sandbox.uma.money`, `Sandbox Receiver SUCCESS`).
 */
export const receiverCustomerInfoOf = (behavior: string) => ({ FULL_NAME: `Sandbox Receiver ${behavior}` })

/**
 * The sandbox UMA directory. A sandbox address (`SandboxUmaAddresses`) receives its one currency and shares its
 * payee data (`receiverCustomerInfoOf`); any other name on a sandbox domain is `UMA_NOT_FOUND`. Every address on any
 * other domain is a simulated counterparty that accepts USD and shares no payee data. All of them list `FULL_NAME`
 * as optional payer data. Decided from the address alone.
 */
export const layer: Layer.Layer<UmaDirectory.UmaDirectory> = Layer.succeed(UmaDirectory.UmaDirectory, {
  receiver: ({ receiver }) =>
    Option.match(SandboxUmaAddresses.read(receiver), {
      onNone: () => Effect.succeed({ currencies: ["USD"], requiredPayerDataFields }),
      onSome: Option.match({
        onNone: () => Effect.fail(UmaErrors.UmaNotFound.of(receiver)),
        onSome: (sandbox) =>
          Effect.succeed({
            currencies: [sandbox.currency],
            requiredPayerDataFields,
            receiverCustomerInfo: receiverCustomerInfoOf(sandbox.behavior)
          })
      })
    })
})
