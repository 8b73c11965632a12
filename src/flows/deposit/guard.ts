// The quote guard: the service decides prices and addresses, never the chain, the token or the
// amount (../shared/SECURITY.md). A pure function over the buyer's request and the quote, run
// before any wallet prompt and again right before each send. Loaded with the wallet code (viem).
import { type Hex, decodeFunctionData } from 'viem'
import type { DepositQuote, DepositQuoteRequest } from '../../api/schemas'
import { type WidgetConfig, chainOf } from '../../config/config'
import { toBaseUnits } from '../../lib/decimal'
import { isNativeToken } from './preview'

export type GuardRule =
  | 'source'
  | 'chain'
  | 'amount'
  | 'target'
  | 'value'
  | 'approval.native'
  | 'approval.token'
  | 'approval.amount'
  | 'approval.spender'
  | 'transfer.token'
  | 'transfer.amount'
  | 'transfer.from'
  | 'data.approve'
  | 'data.token'
  | 'data.malformed'

export type GuardResult = { ok: true } | { ok: false; rule: GuardRule }

const ZERO = '0x0000000000000000000000000000000000000000'

const erc20 = [
  { type: 'function', name: 'transfer', stateMutability: 'nonpayable', inputs: [{ name: 'to', type: 'address' }, { name: 'amount', type: 'uint256' }], outputs: [] },
  { type: 'function', name: 'transferFrom', stateMutability: 'nonpayable', inputs: [{ name: 'from', type: 'address' }, { name: 'to', type: 'address' }, { name: 'amount', type: 'uint256' }], outputs: [] },
  { type: 'function', name: 'approve', stateMutability: 'nonpayable', inputs: [{ name: 'spender', type: 'address' }, { name: 'amount', type: 'uint256' }], outputs: [] },
  { type: 'function', name: 'increaseAllowance', stateMutability: 'nonpayable', inputs: [{ name: 'spender', type: 'address' }, { name: 'amount', type: 'uint256' }], outputs: [] },
] as const

// transfer, transferFrom, approve, increaseAllowance
const SELECTORS = ['0xa9059cbb', '0x23b872dd', '0x095ea7b3', '0x39509351']

const same = (a: string | undefined, b: string | undefined) => !!a && !!b && a.toLowerCase() === b.toLowerCase()

function units(value: string, decimals: number): bigint | undefined {
  try {
    return toBaseUnits(value, decimals)
  } catch {
    return undefined
  }
}

/** `ok`, or the first rule the quote breaks. */
export function guardQuote(request: DepositQuoteRequest, quote: DepositQuote, config: WidgetConfig): GuardResult {
  const fail = (rule: GuardRule): GuardResult => ({ ok: false, rule })
  const { source } = request
  const token = config.sources.find((s) => s.chainId === source.chainId && same(s.token, source.token))
  if (!token) return fail('source')
  const tx = quote.transaction
  if (tx.chainId !== source.chainId) return fail('chain')

  // Exact decimals: in base units of the source token, never through a float.
  const asked = units(request.amount, token.decimals)
  const amountIn = units(quote.amountIn, token.decimals)
  if (asked === undefined || amountIn === undefined || amountIn !== asked) return fail('amount')

  if (same(tx.to, ZERO) || same(tx.to, source.address)) return fail('target')

  const native = isNativeToken(token.token)
  if (native) {
    if (BigInt(tx.value) !== amountIn) return fail('value')
    if (quote.approval) return fail('approval.native')
  } else if (BigInt(tx.value) !== 0n) {
    return fail('value')
  }

  const approval = quote.approval
  if (approval) {
    if (!same(approval.token, token.token)) return fail('approval.token')
    if (BigInt(approval.amount) !== amountIn) return fail('approval.amount')
    const routers = chainOf(config, source.chainId).routers ?? []
    if (!same(approval.spender, tx.to) && !routers.some((r) => same(r, approval.spender))) return fail('approval.spender')
  }

  const selector = tx.data.slice(0, 10).toLowerCase()
  if (SELECTORS.includes(selector)) {
    let call: ReturnType<typeof decodeFunctionData<typeof erc20>>
    try {
      call = decodeFunctionData({ abi: erc20, data: tx.data as Hex })
    } catch {
      return fail('data.malformed')
    }
    if (call.functionName === 'approve' || call.functionName === 'increaseAllowance') return fail('data.approve')
    if (!same(tx.to, token.token)) return fail('transfer.token')
    if (call.functionName === 'transferFrom' && !same(call.args[0], source.address)) return fail('transfer.from')
    const amount = call.functionName === 'transfer' ? call.args[1] : call.args[2]
    if (amount !== amountIn) return fail('transfer.amount')
  } else if (same(tx.to, token.token)) {
    // Any other call on the buyer's own token (permit, a custom method): not a deposit.
    return fail('data.token')
  }
  return { ok: true }
}
