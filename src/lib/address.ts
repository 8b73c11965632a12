// An EVM address as text: the one spelling of its checks for the partner kit. (The widget's flows
// keep their own one-line checks: a module shared by their chunks would be a chunk of its own in
// every first load, +22 to +138 B gzip measured.)

/** 0x and 40 hex digits (any case; the EIP-55 checksum is checked where an address is typed). */
export const isAddress = (value: string): boolean => /^0x[0-9a-fA-F]{40}$/.test(value)

/** The zero address: no one's, a transfer to it burns. */
export const isZeroAddress = (value: string): boolean => /^0x0{40}$/.test(value)
