import { createServer } from "node:http"

// The baseline: plain node:http answering every request with the same 300 bytes of JSON, nothing else. Started by
// the bench as a process of its own (like the reference server), on the port given as the first argument.
const port = Number(process.argv[2])
const padding = "x".repeat(300 - JSON.stringify({ status: "ok", padding: "" }).length)
const body = Buffer.from(JSON.stringify({ status: "ok", padding }))
if (body.length !== 300) throw new Error(`the baseline body is ${body.length} bytes, not 300`)

const server = createServer((_request, response) => {
  response.writeHead(200, { "content-type": "application/json", "content-length": body.length })
  response.end(body)
})
server.listen(port, "127.0.0.1")
const stop = () => {
  server.closeAllConnections()
  server.close(() => process.exit(0))
}
process.once("SIGINT", stop)
process.once("SIGTERM", stop)
