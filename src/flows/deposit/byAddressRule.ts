// Whether a deposit's quote can be paid by address (from another wallet or an exchange): only when
// what it asks the wallet to do is one plain ERC-20 transfer of exactly the asked amount, in the
// quoted token, on the quoted chain, with nothing beside it (no approval, no other call). Then the
// buyer may send that amount to the transfer's recipient, the quote's deposit address, from
// anywhere. Pure; loaded with the by-address code (it decodes calldata with viem).
import { type Hex, decodeFunctionData, encodeFunctionData } from 'viem'
import type { DepositAddressRequest, DepositQuote } from '../../api/schemas'
import type { TokenConfig } from '../../config/config'
import { toBaseUnits } from '../../lib/decimal'

/** Why a quote cannot be paid by address: it needs an approval, another call, another amount or chain. */
export type ByAddressRefusal = 'approval' | 'call' | 'amount' | 'chain'

export type Payable = { ok: true; address: string; token: string; units: string } | { ok: false; why: ByAddressRefusal }

/** ERC-20's transfer(address,uint256): the guard reads it too (guard.ts). */
export const transferAbi = [
  {
    type: 'function',
    name: 'transfer',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'to', type: 'address' },
      { name: 'amount', type: 'uint256' },
    ],
    outputs: [{ type: 'bool' }],
  },
] as const

const same = (a: string, b: string | undefined) => !!b && a.toLowerCase() === b.toLowerCase()
const ZERO = /^0x0{40}$/

export function payableByAddress(request: DepositAddressRequest, quote: DepositQuote, token: TokenConfig): Payable {
  const refuse = (why: ByAddressRefusal): Payable => ({ ok: false, why })
  const tx = quote.transaction
  if (tx.chainId !== request.source.chainId || token.chainId !== tx.chainId) return refuse('chain')
  if (quote.approval) return refuse('approval')
  if (!same(tx.to, token.token) || !same(request.source.token, token.token) || BigInt(tx.value) !== 0n) return refuse('call')
  let to: string
  let amount: bigint
  try {
    const call = decodeFunctionData({ abi: transferAbi, data: tx.data as Hex })
    ;[to, amount] = call.args
    // decodeFunctionData reads the arguments and ignores what follows them (another call, a byte):
    // only calldata that is exactly this one transfer, encoded back, is a plain transfer.
    if (encodeFunctionData({ abi: transferAbi, functionName: 'transfer', args: call.args }) !== tx.data.toLowerCase()) return refuse('call')
  } catch {
    return refuse('call')
  }
  if (ZERO.test(to) || same(to, token.token) || same(to, request.source.address)) return refuse('call')
  let asked: bigint
  try {
    asked = toBaseUnits(request.amount, token.decimals)
    if (toBaseUnits(quote.amountIn, token.decimals) !== asked) return refuse('amount')
  } catch {
    return refuse('amount')
  }
  if (amount !== asked) return refuse('amount')
  return { ok: true, address: to, token: token.token, units: asked.toString() }
}
