// A crypto deposit paid by address (from another wallet or an exchange), where the partner's kit
// asked the service for the quote itself (POST /deposit/address): the kit records the quote's
// deposit address to the signed-in user who asked, before the widget shows it, and a transfer into
// that address exactly as quoted is that user's whoever sent it. An exchange's hot wallet signs no
// message for anyone, so the sender cannot be what links such a deposit to the buyer: the kit's own
// record of who asked for the address does (docs/assumptions.md, "Paying by address").
import { decodeFunctionData, encodeFunctionData, erc20Abi, type Hex } from 'viem'
import type { DepositQuote } from '../api/schemas-deposit'
import type { ReceiptCheck } from './depositReceipt'
import type { DepositAddress, PaymentStore, RecordedDepositAddress } from './store/paymentStore'
import { isZeroAddress } from '../lib/address'

/**
 * The deposit address of a quote that asks one plain ERC-20 transfer of the source token on the
 * source chain and nothing else (the widget's by-address rule, flows/deposit/byAddressRule.ts);
 * undefined for any other quote, which then links nothing to anyone.
 */
export function plainTransfer(quote: DepositQuote, source: { chainId: number; token: string }): Omit<DepositAddress, 'userId' | 'fromBlock'> | undefined {
  const tx = quote.transaction
  const token = source.token.toLowerCase()
  if (quote.approval || tx.chainId !== source.chainId || tx.to.toLowerCase() !== token || BigInt(tx.value) !== 0n) return undefined
  try {
    const call = decodeFunctionData({ abi: erc20Abi, data: tx.data as Hex })
    if (call.functionName !== 'transfer') return undefined
    // Exactly this one call: decoding ignores bytes after the arguments.
    if (encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: call.args }) !== tx.data.toLowerCase()) return undefined
    const [to, units] = call.args
    const address = to.toLowerCase()
    if (isZeroAddress(address) || address === token || units === 0n) return undefined
    return { chainId: tx.chainId, address, token, units: units.toString() }
  } catch {
    return undefined
  }
}

/**
 * Whose deposit the transaction is by the addresses the kit gave: `mine` (it pays, exactly as
 * quoted and after the address was given, one this user asked for), `another` (it pays one another
 * user asked for: never this user's, whoever sent it), `none` (no address the kit gave), or the
 * reason it pays this user's own address but not as quoted.
 */
export async function byDepositAddress(
  store: PaymentStore,
  user: string,
  chainId: number,
  read: Extract<ReceiptCheck, { ok: true }>,
): Promise<'mine' | 'another' | 'none' | { notAsQuoted: string }> {
  // One read for every recipient: anyone may name any public transaction, an airdrop of thousands too.
  const records = await store.depositAddressesOf(
    chainId,
    read.transfers.map((t) => t.to),
  )
  const paid = new Map(records.map((r) => [r.address, r]))
  if (records.length === 0) return 'none'
  if (records.some((r) => r.userId !== user)) return 'another'
  const into = read.transfers.filter((t) => paid.has(t.to))
  const asQuoted = into.filter((t) => {
    const r = paid.get(t.to) as RecordedDepositAddress
    return r.quoted.some((q) => t.token === q.token && t.units.toString() === q.units)
  })
  if (asQuoted.length === 0) return { notAsQuoted: 'txHash: it pays the deposit address another amount or another token than quoted' }
  if (!asQuoted.some((t) => read.blockNumber > BigInt((paid.get(t.to) as RecordedDepositAddress).fromBlock)))
    return { notAsQuoted: 'txHash: it was mined before this backend gave the deposit address' }
  return 'mine'
}
