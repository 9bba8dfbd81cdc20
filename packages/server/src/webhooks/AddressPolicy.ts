import ipaddr from "ipaddr.js"

/** Cloud metadata services, named in refusals because they are what an SSRF attack usually aims at. */
export const metadataAddresses: ReadonlyArray<string> = ["169.254.169.254", "fd00:ec2::254"]

/**
 * Why a production platform's webhook may not reach `address`, or undefined when it may: only public unicast
 * addresses are allowed. `ipaddr.js` classifies the address (an IPv4-mapped IPv6 address as its IPv4 form), so
 * loopback, private, link-local (metadata included), shared CGNAT, unique-local, multicast, reserved and every other
 * special-purpose range is refused.
 */
export const refusal = (address: string): string | undefined => {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`
  const parsed = ipaddr.process(address)
  const range = parsed.range()
  if (range === "unicast") return undefined
  const normalized = parsed.toString()
  const metadata = metadataAddresses.some((candidate) => ipaddr.parse(candidate).toString() === normalized)
  return metadata
    ? `${address} is a cloud metadata address`
    : `${address} is a ${range} address, which production webhooks may not target`
}
