/** A quantity as JSON-RPC writes it (0x-prefixed, no leading zeros). */
export const hex = (n: bigint) => `0x${n.toString(16)}`
