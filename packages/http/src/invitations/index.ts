export * as InvitationsHandlers from "./InvitationsHandlers.js"
