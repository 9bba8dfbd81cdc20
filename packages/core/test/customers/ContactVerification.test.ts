import { describe, expect, it } from "@effect/vitest"
import { ContactVerification } from "@payrail/core"
import type { CountryCode } from "@payrail/account-formats"

const { reconcile, usesContactVerification } = ContactVerification

const region = (code: string) => code as CountryCode.CountryCode

describe("ContactVerification", () => {
  it("is used by the EEA, the United Kingdom and Switzerland only", () => {
    for (const code of ["FR", "DE", "IE", "NO", "IS", "LI", "GB", "CH"])
      expect(usesContactVerification(region(code))).toBe(true)
    for (const code of ["US", "BR", "MX", "SG", "TR"]) expect(usesContactVerification(region(code))).toBe(false)
    expect(usesContactVerification(undefined)).toBe(false)
  })

  it("starts each contact of a new customer PENDING in a verifying region, and has nothing elsewhere", () => {
    expect(reconcile(undefined, { region: region("FR"), email: "a@example.com" })).toEqual({ email: "PENDING" })
    expect(reconcile(undefined, { region: region("US"), email: "a@example.com" })).toBeUndefined()
    expect(reconcile(undefined, { region: region("FR") })).toEqual({})
  })

  it("keeps the status of an unchanged contact and makes a changed or new one PENDING", () => {
    const verified = {
      region: region("FR"),
      email: "a@example.com",
      phoneNumber: "+33611111111",
      contactVerification: { email: "VERIFIED", phone: "VERIFIED" } as const
    }
    expect(reconcile(verified, { ...verified })).toEqual({ email: "VERIFIED", phone: "VERIFIED" })
    expect(reconcile(verified, { ...verified, email: "b@example.com" })).toEqual({
      email: "PENDING",
      phone: "VERIFIED"
    })
    expect(reconcile(verified, { ...verified, phoneNumber: undefined })).toEqual({ email: "VERIFIED" })
    expect(reconcile(verified, { ...verified, region: region("US") })).toBeUndefined()
    // Back into a verifying region: nothing carried over from before.
    const moved = { ...verified, region: region("US"), contactVerification: undefined }
    expect(reconcile(moved, { ...verified })).toEqual({ email: "PENDING", phone: "PENDING" })
  })
})
