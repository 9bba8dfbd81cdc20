import { start } from "./server.js"

const app = await start({ port: Number(process.env["PORT"] ?? 3000) })
console.log(`wallet page:    ${app.origin}/`)
console.log(`API reference:  ${app.origin}/payrail/docs (the page's backend holds the platform credentials)`)
const stop = () => void app.close().then(() => process.exit(0))
process.once("SIGINT", stop)
process.once("SIGTERM", stop)
