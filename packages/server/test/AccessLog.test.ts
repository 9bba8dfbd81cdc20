import { describe, expect, it } from "vitest"
import * as AccessLog from "../src/AccessLog.js"

describe("AccessLog.line", () => {
  it("logs the path without its query string", () => {
    expect(AccessLog.line("GET", "/2025-10-13/customers?email=a%40b.example", 200, 3.14)).toBe(
      "GET /2025-10-13/customers 200 3.1ms"
    )
  })

  it("never logs an agent device code, which is a credential", () => {
    expect(AccessLog.line("POST", "/2025-10-13/agents/device-codes/PAYRAIL-AGENT-X7K9-M2P4-H8QZ/redeem", 200, 1)).toBe(
      "POST /2025-10-13/agents/device-codes/{code}/redeem 200 1.0ms"
    )
    expect(AccessLog.line("GET", "/agents/device-codes/PAYRAIL-AGENT-X7K9-M2P4-H8QZ/status?x=1", 404, 1)).toBe(
      "GET /agents/device-codes/{code}/status 404 1.0ms"
    )
  })

  it("never logs the secret of a hosted verification page, whose holder can submit the customer's packet", () => {
    expect(AccessLog.line("GET", "/verify/kyc_Zm9vYmFyYmF6", 200, 2)).toBe("GET /verify/{secret} 200 2.0ms")
    expect(AccessLog.line("POST", "/mount/verify/kyc_Zm9vYmFyYmF6/documents?step=2", 303, 2)).toBe(
      "POST /mount/verify/{secret}/documents 303 2.0ms"
    )
    expect(AccessLog.line("GET", "/2025-10-13/verifications/Verification:1", 200, 2)).toBe(
      "GET /2025-10-13/verifications/Verification:1 200 2.0ms"
    )
  })

  it("never logs the token of a card reveal page, which opens the card's full number and CVC", () => {
    expect(AccessLog.line("GET", "/cards/reveal/Zm9vYmFyYmF6-_x", 200, 2)).toBe("GET /cards/reveal/{token} 200 2.0ms")
    expect(AccessLog.line("GET", "/mount/cards/reveal/Zm9vYmFyYmF6?x=1", 410, 2)).toBe(
      "GET /mount/cards/reveal/{token} 410 2.0ms"
    )
    expect(AccessLog.line("POST", "/2025-10-13/cards/Card:1/reveal", 200, 2)).toBe(
      "POST /2025-10-13/cards/Card:1/reveal 200 2.0ms"
    )
  })
})
