import { Effect } from "effect"
import { expect, it } from "vitest"
import { Outbox, Platform, Platforms } from "@payrail/core"
import { describeOverHttp } from "../support/OverHttp.js"
import { requestsOf } from "../support/Requests.js"

/*
 * UMA invitations over HTTP on every storage adapter, every response checked against the OpenAPI document: create,
 * get, claim (from another platform too, with INVITATION.CLAIMED to the inviting platform in the same unit of
 * work), cancel, and every refusal; 20 concurrent claims of one code have exactly one winner.
 */
describeOverHttp("UMA invitations", {}, (api) => {
  const t = () => requestsOf(api)
  const claimedEvents = async (code: string) =>
    (await api.run(Effect.flatMap(Outbox.Outbox, (outbox) => outbox.pending(100_000)))).filter(
      (event) => event.type === "INVITATION.CLAIMED" && event.data["code"] === code
    )
  const invite = async (body: Record<string, unknown> = {}) => {
    const inviter = await t().newCustomer()
    const created = await t().send("POST", "/invitations", { inviterUma: inviter.umaAddress, ...body })
    expect(created.status).toBe(201)
    return { inviter, invitation: created.body }
  }

  it("POST /invitations creates a PENDING invitation (201) with an unguessable code and its link", async () => {
    const { inviter, invitation } = await invite({ firstName: "Jane", amountToSend: 12_550 })
    expect(invitation).toMatchObject({
      status: "PENDING",
      inviterUma: inviter.umaAddress,
      firstName: "Jane",
      amountToSend: { amount: 12_550, currency: { code: "USD", decimals: 2 } }
    })
    expect(invitation.code).toMatch(/^[0-9a-f]{32}$/)
    expect(invitation.url).toBe(`https://sandbox.payrail.local/i/${invitation.code}`)
    expect(invitation.claimedAt).toBeUndefined()
    const other = await invite()
    expect(other.invitation.code).not.toBe(invitation.code)
    const read = await t().send("GET", `/invitations/${invitation.code}`)
    expect(read).toMatchObject({ status: 200, body: invitation })
  })

  it("takes an address without its $ and in capitals, and an amount in another supported currency", async () => {
    const inviter = await t().newCustomer()
    const written = inviter.umaAddress.slice(1).toUpperCase()
    const created = await t().send("POST", "/invitations", {
      inviterUma: written,
      amountToSend: 1_000_000,
      currency: "USDC"
    })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({
      inviterUma: inviter.umaAddress,
      amountToSend: { amount: 1_000_000, currency: { code: "USDC", decimals: 6 } }
    })
  })

  it("claiming from another platform makes it CLAIMED and sends INVITATION.CLAIMED to the inviting platform", async () => {
    const { invitation } = await invite({ amountToSend: 500 })
    expect(await claimedEvents(invitation.code)).toEqual([])
    const claimed = await t().send(
      "POST",
      `/invitations/${invitation.code}/claim`,
      { inviteeUma: "$bob@other.example.com" },
      api.otherPlatformBasic
    )
    expect(claimed.status).toBe(200)
    expect(claimed.body).toMatchObject({
      code: invitation.code,
      status: "CLAIMED",
      inviteeUma: "$bob@other.example.com"
    })
    expect(typeof claimed.body.claimedAt).toBe("string")
    const events = await claimedEvents(invitation.code)
    expect(events).toHaveLength(1)
    expect(events[0]?.platformId).toBe(api.platform.id)
    expect(events[0]?.data).toEqual(claimed.body)
    // Nothing moves on claim: the amount is for display; the inviting platform pays once it hears of the claim.
    const again = await t().refusal("POST", `/invitations/${invitation.code}/claim`, {
      inviteeUma: "$carol@c.example.com"
    })
    expect(again).toMatchObject({ status: 400, code: "INVITATION_ALREADY_CLAIMED" })
    expect(await t().refusal("POST", `/invitations/${invitation.code}/cancel`)).toMatchObject({
      status: 400,
      code: "INVITATION_ALREADY_CLAIMED"
    })
    expect((await t().send("GET", `/invitations/${invitation.code}`)).body).toEqual(claimed.body)
    expect(await claimedEvents(invitation.code)).toHaveLength(1)
  })

  it("lets exactly one of 20 concurrent claims win; the others get INVITATION_ALREADY_CLAIMED", async () => {
    const { invitation } = await invite()
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        t().send("POST", `/invitations/${invitation.code}/claim`, { inviteeUma: `$claimer${index}@c.example.com` })
      )
    )
    const winners = answers.filter((answer) => answer.status === 200)
    expect(winners).toHaveLength(1)
    for (const answer of answers.filter((answer) => answer.status !== 200)) {
      expect(answer).toMatchObject({ status: 400, body: { code: "INVITATION_ALREADY_CLAIMED" } })
    }
    const read = await t().send("GET", `/invitations/${invitation.code}`)
    expect(read.body.inviteeUma).toBe(winners[0]?.body.inviteeUma)
    expect(await claimedEvents(invitation.code)).toHaveLength(1)
  })

  it("cancel makes it CANCELLED; only the inviting platform may cancel; a cancelled one cannot be claimed", async () => {
    const { invitation } = await invite()
    expect(
      await t().refusal("POST", `/invitations/${invitation.code}/cancel`, undefined, api.otherPlatformBasic)
    ).toEqual({
      status: 403,
      code: "FORBIDDEN",
      details: { rule: "not_inviting_platform", invitationCode: invitation.code }
    })
    const cancelled = await t().send("POST", `/invitations/${invitation.code}/cancel`)
    expect(cancelled).toMatchObject({ status: 200, body: { code: invitation.code, status: "CANCELLED" } })
    const claim = await t().refusal("POST", `/invitations/${invitation.code}/claim`, {
      inviteeUma: "$bob@b.example.com"
    })
    expect(claim).toMatchObject({ status: 400, code: "INVITATION_CANCELLED" })
    expect(await t().refusal("POST", `/invitations/${invitation.code}/cancel`)).toMatchObject({
      status: 400,
      code: "INVITATION_CANCELLED"
    })
    expect(await claimedEvents(invitation.code)).toEqual([])
  })

  it("answers 404 INVITATION_NOT_FOUND for an unknown or malformed code, on every operation", async () => {
    for (const code of ["0".repeat(32), "nope", "%24weird"]) {
      for (const [method, path, body] of [
        ["GET", `/invitations/${code}`, undefined],
        ["POST", `/invitations/${code}/claim`, { inviteeUma: "$bob@b.example.com" }],
        ["POST", `/invitations/${code}/cancel`, undefined]
      ] as const) {
        expect(await t().refusal(method, path, body)).toMatchObject({ status: 404, code: "INVITATION_NOT_FOUND" })
      }
    }
  })

  it("refuses UMA addresses: malformed, not a live customer, or the inviter claiming their own invitation", async () => {
    expect(await t().refusal("POST", "/invitations", { inviterUma: "not an address" })).toEqual({
      status: 400,
      code: "INVALID_UMA_ADDRESS",
      details: { field: "inviterUma", rule: "malformed" }
    })
    expect(await t().refusal("POST", "/invitations", { inviterUma: "$nobody@sandbox.payrail.local" })).toEqual({
      status: 400,
      code: "INVALID_UMA_ADDRESS",
      details: { field: "inviterUma", rule: "not_a_customer" }
    })
    const stranger = await t().newCustomer({ auth: api.otherPlatformBasic })
    expect(await t().refusal("POST", "/invitations", { inviterUma: stranger.umaAddress })).toMatchObject({
      status: 400,
      details: { rule: "not_a_customer" }
    })
    const { inviter, invitation } = await invite()
    expect(await t().refusal("POST", `/invitations/${invitation.code}/claim`, { inviteeUma: "bad address" })).toEqual({
      status: 400,
      code: "INVALID_UMA_ADDRESS",
      details: { field: "inviteeUma", rule: "malformed" }
    })
    expect(
      await t().refusal("POST", `/invitations/${invitation.code}/claim`, { inviteeUma: inviter.umaAddress })
    ).toEqual({ status: 400, code: "INVALID_UMA_ADDRESS", details: { field: "inviteeUma", rule: "same_as_inviter" } })
  })

  it("refuses invalid fields with INVALID_INPUT naming each", async () => {
    const inviter = await t().newCustomer()
    const refused = await t().refusal("POST", "/invitations", {
      inviterUma: inviter.umaAddress,
      amountToSend: -5,
      currency: "XXX",
      firstName: ""
    })
    expect(refused.status).toBe(400)
    expect(refused.code).toBe("INVALID_INPUT")
    expect(t().fieldsOf(refused.details).sort()).toEqual(["amountToSend", "currency", "firstName"])
    const past = await t().refusal("POST", "/invitations", {
      inviterUma: inviter.umaAddress,
      expiresAt: "2020-01-01T00:00:00Z"
    })
    expect(past).toMatchObject({ status: 400, code: "INVALID_INPUT" })
    expect(t().fieldsOf(past.details)).toEqual(["expiresAt"])
    const missing = await t().refusal("POST", "/invitations/0/claim", {})
    expect(missing).toMatchObject({ status: 400, code: "INVALID_INPUT" })
    expect(t().fieldsOf(missing.details)).toEqual(["inviteeUma"])
  })

  it("a token without MANAGE cannot create, claim or cancel (403); VIEW reads", async () => {
    const viewer = await api.tokenWith(["VIEW"])
    const { inviter, invitation } = await invite()
    for (const [path, body] of [
      ["/invitations", { inviterUma: inviter.umaAddress }],
      [`/invitations/${invitation.code}/claim`, { inviteeUma: "$bob@b.example.com" }],
      [`/invitations/${invitation.code}/cancel`, undefined]
    ] as const) {
      expect(await t().refusal("POST", path, body, viewer)).toMatchObject({ status: 403, code: "FORBIDDEN" })
    }
    expect((await t().send("GET", `/invitations/${invitation.code}`, undefined, viewer)).status).toBe(200)
  })

  it("a pending invitation past its expiresAt reads EXPIRED and can be neither claimed nor cancelled", async () => {
    const now = Date.parse((await t().send("GET", "/sandbox/clock")).body.currentTime)
    const expiresAt = new Date(now + 60_000).toISOString()
    const { invitation } = await invite({ expiresAt })
    expect(invitation).toMatchObject({ status: "PENDING" })
    expect((await t().send("POST", "/sandbox/clock/advance", { seconds: 120 })).status).toBe(200)
    expect((await t().send("GET", `/invitations/${invitation.code}`)).body.status).toBe("EXPIRED")
    const claim = await t().refusal("POST", `/invitations/${invitation.code}/claim`, {
      inviteeUma: "$bob@b.example.com"
    })
    expect(claim).toMatchObject({
      status: 400,
      code: "INVITATION_EXPIRED",
      details: { invitationCode: invitation.code }
    })
    expect(await t().refusal("POST", `/invitations/${invitation.code}/cancel`)).toMatchObject({
      status: 400,
      code: "INVITATION_EXPIRED"
    })
  })
})

describeOverHttp(
  "UMA invitations on a platform without an umaDomain",
  { config: new Platform.PlatformConfig({ ...Platforms.defaultConfig, umaDomain: "" }) },
  (api) => {
    const t = () => requestsOf(api)
    it("answers INVITATIONS_NOT_CONFIGURED to create and claim", async () => {
      const inviter = await t().newCustomer({ auth: api.otherPlatformBasic })
      const created = await t().send("POST", "/invitations", { inviterUma: inviter.umaAddress }, api.otherPlatformBasic)
      expect(created.status).toBe(201)
      expect(await t().refusal("POST", "/invitations", { inviterUma: "$a@b.example.com" })).toEqual({
        status: 400,
        code: "INVITATIONS_NOT_CONFIGURED",
        details: { rule: "uma_domain_not_configured" }
      })
      const claim = await t().refusal("POST", `/invitations/${created.body.code}/claim`, {
        inviteeUma: "$a@b.example.com"
      })
      expect(claim).toMatchObject({ status: 400, code: "INVITATIONS_NOT_CONFIGURED" })
      expect((await t().send("GET", `/invitations/${created.body.code}`)).status).toBe(200)
    })
  }
)
