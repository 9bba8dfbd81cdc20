import { describe, expect, it } from "@effect/vitest"
import { DateTime, Option } from "effect"
import { Invitation, Invitations, Platform } from "@payrail/core"

const at = (seconds: number) => DateTime.unsafeMake(Date.UTC(2026, 0, 1) + seconds * 1000)

const invitation = (fields: Partial<ConstructorParameters<typeof Invitation.Invitation>[0]> = {}) =>
  new Invitation.Invitation({
    code: "0123456789abcdef0123456789abcdef",
    platformId: Platform.PlatformId.make("Platform:00000000-0000-4000-8000-000000000001"),
    environment: "SANDBOX",
    status: "PENDING",
    url: "https://uma.example.com/i/0123456789abcdef0123456789abcdef",
    inviterUma: "$alice@uma.example.com",
    createdAt: at(0),
    updatedAt: at(0),
    ...fields
  })

describe("Invitation", () => {
  it("reads EXPIRED once a pending invitation reaches its expiresAt, never without one", () => {
    const expiring = invitation({ expiresAt: at(60) })
    expect(Invitation.statusAt(expiring, at(59))).toBe("PENDING")
    expect(Invitation.statusAt(expiring, at(60))).toBe("EXPIRED")
    expect(Invitation.statusAt(invitation(), at(1_000_000))).toBe("PENDING")
    expect(Invitation.statusAt(invitation({ status: "CLAIMED", expiresAt: at(60) }), at(120))).toBe("CLAIMED")
    expect(Invitation.statusAt(invitation({ status: "CANCELLED", expiresAt: at(60) }), at(120))).toBe("CANCELLED")
  })

  it("refuses a claim or cancellation with the code of the state that forbids it", () => {
    const codeOf = (found: Invitation.Invitation, now: DateTime.Utc) =>
      Option.map(Invitations.refusalAt(found, now), (refusal) => refusal.code)
    expect(codeOf(invitation(), at(1))).toEqual(Option.none())
    expect(codeOf(invitation({ status: "CLAIMED" }), at(1))).toEqual(Option.some("INVITATION_ALREADY_CLAIMED"))
    expect(codeOf(invitation({ status: "CANCELLED" }), at(1))).toEqual(Option.some("INVITATION_CANCELLED"))
    expect(codeOf(invitation({ expiresAt: at(10) }), at(10))).toEqual(Option.some("INVITATION_EXPIRED"))
  })

  it("shows the amount with its whole currency, and the link on the UMA domain in lower case", () => {
    const shown = Invitation.view(invitation({ amountToSend: { amount: 12_550, currency: "USD" } }), at(1))
    expect(shown.amountToSend).toEqual({
      amount: 12_550,
      currency: expect.objectContaining({ code: "USD", decimals: 2 })
    })
    expect(Invitation.urlFor("UMA.Example.com", "abc")).toBe("https://uma.example.com/i/abc")
    expect(Invitation.isCode("0123456789abcdef0123456789abcdef")).toBe(true)
    expect(Invitation.isCode("0123456789ABCDEF0123456789ABCDEF")).toBe(false)
  })

  it("takes invitations only where the platform has an umaDomain", () => {
    const platform = (umaDomain: string) => ({ config: { umaDomain } }) as unknown as Platform.Platform
    expect(Invitations.isConfigured(platform("uma.example.com"))).toBe(true)
    expect(Invitations.isConfigured(platform(" "))).toBe(false)
  })
})
