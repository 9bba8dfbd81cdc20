import * as Receiver from "./Receiver.js"

// WEBHOOK_SECRET=whsec_… PORT=3000 npx tsx examples/webhook-receiver/src/main.ts
const secret = process.env.WEBHOOK_SECRET
if (secret === undefined || !secret.startsWith("whsec_")) {
  console.error("set WEBHOOK_SECRET to the platform's whsec_… signing secret (npm start prints it on first start)")
  process.exit(2)
}
const port = Number(process.env.PORT ?? 3000)
const server = Receiver.make({
  secret,
  onEvent: (event) => console.log(`verified ${Receiver.summarize(event)}`)
})
server.listen(port, "127.0.0.1", () => {
  console.log(`receiving Payrail webhooks at http://127.0.0.1:${port}/webhooks`)
})
process.on("SIGTERM", () => server.close(() => process.exit(0)))
process.on("SIGINT", () => server.close(() => process.exit(0)))
