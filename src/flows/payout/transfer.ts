// The payout's funding as the contract allows it: a plain ERC-20 transfer of depositAmount to
// depositAddress on exactly `chain`, value 0, no approval, no other call. Built here, and checked
// again as the quote guard checks a deposit (token, amount, target, value) before each prompt.
// Pure, and without viem: the calldata is two words after the selector.
import type { PayoutQuote } from '../../api/payout'
import { toBaseUnits } from '../../lib/decimal'
import type { Source } from './base'

export type TransferRule = 'chain' | 'token' | 'amount' | 'quote.amount' | 'target' | 'value' | 'data'

export type Transfer = { chainId: number; to: string; data: string; value: bigint }
export type TransferCheck = { ok: true } | { ok: false; rule: TransferRule }

/** ERC-20 transfer(address,uint256). */
export const TRANSFER_SELECTOR = '0xa9059cbb'
const ADDRESS = /^0x[0-9a-fA-F]{40}$/
const ZERO = /^0x0{40}$/

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()
const word = (hex: string) => hex.replace(/^0x/, '').toLowerCase().padStart(64, '0')

function units(value: string, decimals: number): bigint | undefined {
  try {
    return toBaseUnits(value, decimals)
  } catch {
    return undefined
  }
}

/** What the service answered, against what the buyer was quoted and what the embedding pays with. */
export function checkPayout(
  payout: { depositAddress: string; depositAmount: string; chain: number },
  quote: Pick<PayoutQuote, 'cryptoAmount'>,
  source: Source,
  sender?: string,
): TransferCheck {
  const fail = (rule: TransferRule): TransferCheck => ({ ok: false, rule })
  // Sending on any other chain loses the funds: the service names it, the embedding decides it.
  if (payout.chain !== source.chainId) return fail('chain')
  const asked = units(quote.cryptoAmount, source.decimals)
  const amount = units(payout.depositAmount, source.decimals)
  if (amount === undefined || amount <= 0n) return fail('amount')
  if (asked === undefined || amount !== asked) return fail('quote.amount')
  const target = payout.depositAddress
  if (!ADDRESS.test(target) || ZERO.test(target) || same(target, source.token) || (sender && same(target, sender))) return fail('target')
  return { ok: true }
}

/** The one transaction the wallet is asked for. */
export function transferOf(record: { depositAddress: string; depositAmount: string; chain: number }, source: Source): Transfer {
  const amount = toBaseUnits(record.depositAmount, source.decimals)
  return {
    chainId: record.chain,
    to: source.token,
    data: `${TRANSFER_SELECTOR}${word(record.depositAddress)}${word(amount.toString(16))}`,
    value: 0n,
  }
}

/** Right before the prompt: the transaction is exactly the plain transfer of the payout, nothing more. */
export function checkTransfer(
  tx: Transfer,
  record: { depositAddress: string; depositAmount: string; chain: number },
  source: Source,
  sender: string,
): TransferCheck {
  const fail = (rule: TransferRule): TransferCheck => ({ ok: false, rule })
  if (tx.chainId !== source.chainId || record.chain !== source.chainId) return fail('chain')
  if (!same(tx.to, source.token)) return fail('token')
  if (tx.value !== 0n) return fail('value')
  const data = tx.data.toLowerCase()
  if (!data.startsWith(TRANSFER_SELECTOR) || data.length !== 10 + 64 * 2 || !/^0x[0-9a-f]*$/.test(data)) return fail('data')
  const to = `0x${data.slice(10 + 24, 10 + 64)}`
  if (!/^0{24}$/.test(data.slice(10, 34))) return fail('data')
  if (!same(to, record.depositAddress) || ZERO.test(to) || same(to, sender) || same(to, source.token)) return fail('target')
  const amount = BigInt(`0x${data.slice(74)}`)
  const wanted = units(record.depositAmount, source.decimals)
  if (wanted === undefined || wanted <= 0n || amount !== wanted) return fail('amount')
  return { ok: true }
}
