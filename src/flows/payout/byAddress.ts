// Funding a payout by address (issue 40, item 4): the payout's one transfer as a payment request
// another wallet or an exchange can make (the QR code, the address, the amount, each to copy), and
// which buyer may leave the connect step without a wallet to do so. The funding step's watch
// (watching.ts) then follows the payout as for any transfer made another way. Pure.
import type { Source } from './base'
import type { PayoutRecord } from './record'
import { checkPayout } from './transfer'
import { toBaseUnits } from '../../lib/decimal'

/** The payout's transfer as an EIP-681 request names it: the token, its chain, the payout's address, the amount in base units. */
export type FundingRequest = { address: string; token: string; chainId: number; units: string }

type Funded = Pick<PayoutRecord, 'depositAddress' | 'depositAmount' | 'chain' | 'token' | 'decimals' | 'promptedAt'>

/**
 * The request offered while nothing was asked of a wallet (once one was, a second transfer from
 * elsewhere could pay the payout twice: its status is checked first, funding.ts), and only for the
 * payout the embedding's token funds, on its chain, to an address the send itself would accept.
 */
export function fundingRequest(record: Funded, source: Source): FundingRequest | undefined {
  if (record.promptedAt !== undefined) return undefined
  if (record.token.toLowerCase() !== source.token.toLowerCase() || record.decimals !== source.decimals) return undefined
  if (!checkPayout(record, { cryptoAmount: record.depositAmount }, source).ok) return undefined
  return { address: record.depositAddress, token: source.token, chainId: record.chain, units: toBaseUnits(record.depositAmount, source.decimals).toString() }
}

/**
 * Who may go on from the connect step with no wallet, to pay from another wallet or an exchange:
 * the account's wallet must already be known (a link signed for it, or the buyer kept on this
 * device), since the payout is the account's (partner-api.md: accountId) and a buyer the service
 * does not know is verified with the wallet connected.
 */
export const byAddressOwner = (buyerWallet: string | undefined, linkWallet: string | undefined): string | undefined => linkWallet ?? buyerWallet
