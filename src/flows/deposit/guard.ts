// The quote guard: the service decides prices and addresses, never the chain, the token or the
// amount (../shared/SECURITY.md). A pure function over the buyer's request and the quote, run
// before any wallet prompt and again right before each send. Loaded with the wallet code (viem).
import { type Hex, decodeFunctionData, encodeFunctionData } from 'viem'
import type { DepositAddressRequest, DepositQuote, DepositQuoteRequest } from '../../api/schemas'
import { type WidgetConfig, chainOf } from '../../config/config'
import { toBaseUnits } from '../../lib/decimal'
import { isNativeToken } from './preview'

// The by-address rule comes with the guard's chunk (walletCode.ts): both decode calldata with viem.
import { transferAbi } from './byAddressRule'
export { payableByAddress } from './byAddressRule'

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
  | 'approval.unneeded'
  | 'transfer.token'
  | 'transfer.amount'
  | 'transfer.from'
  | 'data.approve'
  | 'data.token'
  | 'data.malformed'
  | 'data.permit2'
  | 'data.permit'
  | 'data.approvalForAll'
  | 'data.increaseApproval'
  | 'data.operator'
  | 'data.multicall'
  | 'data.nftTransfer'
  | 'target.router'

export type GuardResult = { ok: true } | { ok: false; rule: GuardRule }

const ZERO = '0x0000000000000000000000000000000000000000'

const erc20 = [
  ...transferAbi,
  {
    type: 'function',
    name: 'transferFrom',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'from', type: 'address' },
      { name: 'to', type: 'address' },
      { name: 'amount', type: 'uint256' },
    ],
    outputs: [],
  },
  {
    type: 'function',
    name: 'approve',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'spender', type: 'address' },
      { name: 'amount', type: 'uint256' },
    ],
    outputs: [],
  },
  {
    type: 'function',
    name: 'increaseAllowance',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'spender', type: 'address' },
      { name: 'amount', type: 'uint256' },
    ],
    outputs: [],
  },
] as const

// transfer, transferFrom, approve, increaseAllowance
const SELECTORS = ['0xa9059cbb', '0x23b872dd', '0x095ea7b3', '0x39509351']

// Calls that grant an allowance, an operator or a signature-based spend, or that bundle arbitrary
// calls, on any contract: never a deposit, whatever `to` is. Each has its rule.
const GRANTS: Record<string, GuardRule> = {
  '0x87517c45': 'data.permit2', // Permit2 approve(address,address,uint160,uint48)
  '0x36c78516': 'data.permit2', // Permit2 transferFrom(address,address,uint160,address)
  '0x2b67b570': 'data.permit2', // Permit2 permit(single)
  '0x2a2d80d1': 'data.permit2', // Permit2 permit(batch)
  '0x30f28b7a': 'data.permit2', // Permit2 permitTransferFrom
  '0xedd9444b': 'data.permit2', // Permit2 permitBatchTransferFrom
  '0xd505accf': 'data.permit', // EIP-2612 permit
  '0x8fcbaf0c': 'data.permit', // DAI permit
  '0xa22cb465': 'data.approvalForAll', // setApprovalForAll(address,bool)
  '0xd73dd623': 'data.increaseApproval', // increaseApproval(address,uint256)
  '0x959b8c3f': 'data.operator', // ERC-777 authorizeOperator(address)
  '0xac9650d8': 'data.multicall', // multicall(bytes[])
  '0x5ae401dc': 'data.multicall', // multicall(uint256,bytes[])
  '0x1f0464d1': 'data.multicall', // multicall(bytes32,bytes[])
  '0x42842e0e': 'data.nftTransfer', // ERC-721 safeTransferFrom(address,address,uint256)
  '0xb88d4fde': 'data.nftTransfer', // ERC-721 safeTransferFrom(address,address,uint256,bytes)
  '0xf242432a': 'data.nftTransfer', // ERC-1155 safeTransferFrom
  '0x2eb2c2d6': 'data.nftTransfer', // ERC-1155 safeBatchTransferFrom
}

// The sandbox's Depositor: deposit(address token, uint256 amount, bytes32 quoteId).
const DEPOSIT = '0x26b3293f'
/** ERC-20 transfer(address,uint256). */
const TRANSFER_SELECTOR = '0xa9059cbb'

const same = (a: string | undefined, b: string | undefined) => !!a && !!b && a.toLowerCase() === b.toLowerCase()

function units(value: string, decimals: number): bigint | undefined {
  try {
    return toBaseUnits(value, decimals)
  } catch {
    return undefined
  }
}

/** `ok`, or the first rule the quote breaks. */
export function guardQuote(request: DepositAddressRequest, quote: DepositQuote, config: WidgetConfig): GuardResult {
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
    // decodeFunctionData reads the arguments and ignores what follows them: the calldata must be
    // exactly the call it decoded, or the wallet would sign bytes the guard never read.
    if (encodeFunctionData({ abi: erc20, functionName: call.functionName, args: call.args } as never).toLowerCase() !== tx.data.toLowerCase())
      return fail('data.malformed')
    if (call.functionName === 'approve' || call.functionName === 'increaseAllowance') return fail('data.approve')
    if (!same(tx.to, token.token)) return fail('transfer.token')
    if (call.functionName === 'transferFrom' && !same(call.args[0], source.address)) return fail('transfer.from')
    const amount = call.functionName === 'transfer' ? call.args[1] : call.args[2]
    if (amount !== amountIn) return fail('transfer.amount')
    // A plain transfer needs no allowance: one asked for beside it would be left over for its spender.
    if (approval) return fail('approval.unneeded')
    // A transfer of exactly amountIn on the source token, decoded and checked: no router involved.
    return { ok: true }
  }
  if (same(tx.to, token.token)) {
    // Any other call on the buyer's own token (permit, a custom method): not a deposit.
    return fail('data.token')
  }
  const grant = GRANTS[selector]
  if (grant) return fail(grant)
  // With a `routers` allowlist, the deposit goes to one of them, or to the (checked) approval spender.
  const allowlist = chainOf(config, source.chainId).routers
  if (allowlist && !allowlist.some((r) => same(r, tx.to)) && !(approval && same(approval.spender, tx.to))) return fail('target.router')
  return { ok: true }
}

/**
 * Whether the guard understands every call of a quote that already passed it, well enough to send
 * without a full simulation (an RPC without eth_simulateV1): a plain transfer of amountIn on the
 * source token (the guard decoded all of it), or the Depositor's deposit(source token, amountIn, id)
 * on the approval's spender. A router's own calldata is not read here: an allowance the buyer once
 * gave it could let it pull more, so such a quote is only sent after eth_simulateV1 judged it.
 */
export function understood(request: DepositQuoteRequest, quote: DepositQuote, config: WidgetConfig): boolean {
  if (!guardQuote(request, quote, config).ok) return false
  const tx = quote.transaction
  const data = tx.data.toLowerCase()
  if (data.startsWith(TRANSFER_SELECTOR) && !quote.approval) return true
  const token = config.sources.find((s) => s.chainId === request.source.chainId && same(s.token, request.source.token))
  const approval = quote.approval
  if (!token || !approval || !same(approval.spender, tx.to) || !data.startsWith(DEPOSIT) || tx.data.length !== 10 + 64 * 3) return false
  const arg = (i: number) => `0x${tx.data.slice(10 + 64 * i, 74 + 64 * i)}`
  return BigInt(arg(0)) === BigInt(token.token) && BigInt(arg(1)) === units(quote.amountIn, token.decimals)
}
