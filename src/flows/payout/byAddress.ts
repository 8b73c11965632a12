// Funding a payout by address (issue 40, item 4): the payout's one transfer as a payment request
// another wallet or an exchange can make (the QR code, the address, the amount, each to copy). Who
// may leave the connect step without a wallet to do so is owner.ts's. The funding step's watch
// (watching.ts) then follows the payout as for any transfer made another way. Pure; only the
// funding screen reads it, so it comes with the later screens, not the first load.
import type { Source } from './base'
import type { PayoutRecord } from './record'
import { toBaseUnits } from '../../lib/decimal'

/** The payout's transfer as an EIP-681 request names it: the token, its chain, the payout's address, the amount in base units. */
export type FundingRequest = { address: string; token: string; chainId: number; units: string }

type Funded = Pick<PayoutRecord, 'depositAddress' | 'depositAmount' | 'chain' | 'token' | 'decimals' | 'promptedAt'>

const ADDRESS = /^0x[0-9a-fA-F]{40}$/
const ZERO = /^0x0{40}$/

/**
 * The request offered while nothing was asked of a wallet (once one was, a second transfer from
 * elsewhere could pay the payout twice: its status is checked first, funding.ts), and only for the
 * payout the embedding's token funds, on its chain, to an address a transfer can go to (the payout
 * was held to its quote when created, transfer.ts; this module stays out of that code's chunk).
 */
export function fundingRequest(record: Funded, source: Source): FundingRequest | undefined {
  if (record.promptedAt !== undefined || record.chain !== source.chainId) return undefined
  const token = source.token.toLowerCase()
  if (record.token.toLowerCase() !== token || record.decimals !== source.decimals) return undefined
  const address = record.depositAddress
  if (!ADDRESS.test(address) || ZERO.test(address) || address.toLowerCase() === token) return undefined
  const units = baseUnits(record.depositAmount, source.decimals)
  return units && units > 0n ? { address, token: source.token, chainId: record.chain, units: units.toString() } : undefined
}

function baseUnits(amount: string, decimals: number): bigint | undefined {
  try {
    return toBaseUnits(amount, decimals)
  } catch {
    return undefined
  }
}
