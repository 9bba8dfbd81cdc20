export * as InvitationsApi from "./InvitationsApi.js"
