/**
 * Waits in real time until `condition` holds, looking again every `everyMs`; throws `timed out waiting for <what>`
 * once `timeoutMs` has passed (`what` may be computed then, to say what was seen).
 */
export const waitFor = async (
  condition: () => boolean | Promise<boolean>,
  what: string | (() => string),
  { timeoutMs = 20_000, everyMs = 10 }: { readonly timeoutMs?: number; readonly everyMs?: number } = {}
): Promise<void> => {
  const deadline = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${typeof what === "string" ? what : what()}`)
    }
    await new Promise((resolve) => setTimeout(resolve, everyMs))
  }
}
