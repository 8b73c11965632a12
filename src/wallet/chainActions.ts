// Everything that needs viem, in one lazily loaded module: actions imported one by one on
// createClient keep this chunk a third of the size of the full wallet/public clients.
import {
  type Chain,
  type Client,
  type Hex,
  createClient,
  custom,
  defineChain,
  encodeFunctionData,
} from 'viem'
import {
  addChain,
  getChainId,
  getTransaction,
  requestAddresses,
  switchChain,
  waitForTransactionReceipt,
} from 'viem/actions'
import type { ChainConfig } from '../config/config'
import { walletProblemOf } from '../errors/WalletError'
import { walk } from '../errors/WidgetError'
import type { Eip1193Provider } from './eip6963'
import { rpcProvider } from './rpcProvider'

// The quote guard decodes calldata with viem: it comes with this chunk, not with the flow's.
export { guardQuote } from '../flows/deposit/guard'

// The three ERC-20 functions the deposit uses (viem's full erc20Abi weighs a kilobyte more).
const erc20Abi = [
  {
    type: 'function',
    name: 'balanceOf',
    stateMutability: 'view',
    inputs: [{ name: 'account', type: 'address' }],
    outputs: [{ type: 'uint256' }],
  },
  {
    type: 'function',
    name: 'allowance',
    stateMutability: 'view',
    inputs: [
      { name: 'owner', type: 'address' },
      { name: 'spender', type: 'address' },
    ],
    outputs: [{ type: 'uint256' }],
  },
  {
    type: 'function',
    name: 'approve',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'spender', type: 'address' },
      { name: 'amount', type: 'uint256' },
    ],
    outputs: [{ type: 'bool' }],
  },
] as const

export function toViemChain(chain: ChainConfig): Chain {
  return defineChain({
    id: chain.id,
    name: chain.name,
    nativeCurrency: { name: chain.nativeSymbol ?? 'Ether', symbol: chain.nativeSymbol ?? 'ETH', decimals: 18 },
    rpcUrls: { default: { http: chain.rpcUrl ? [chain.rpcUrl] : [] } },
    blockExplorers: chain.explorerUrl ? { default: { name: 'Explorer', url: chain.explorerUrl } } : undefined,
  })
}

export function walletClient(provider: Eip1193Provider, chain?: ChainConfig): Client {
  return createClient({ transport: custom(provider), chain: chain && toViemChain(chain), pollingInterval: 1_000 })
}

/** Reads go to the chain's own RPC when the embedding gave one, else through the wallet. */
export function readClient(chain: ChainConfig, provider?: Eip1193Provider): Client {
  const transport = chain.rpcUrl ? custom(rpcProvider(chain.rpcUrl), { retryCount: 3 }) : provider ? custom(provider) : undefined
  if (!transport) throw new Error(`no way to read chain ${chain.id}`)
  return createClient({ transport, chain: toViemChain(chain), pollingInterval: 1_000 })
}

export async function connect(provider: Eip1193Provider): Promise<string | undefined> {
  const [account] = await requestAddresses(walletClient(provider))
  return account
}

export async function currentChainId(provider: Eip1193Provider): Promise<number> {
  return getChainId(walletClient(provider))
}

/** Switches the wallet, adding the chain first when the wallet answers 4902. */
export async function ensureChain(provider: Eip1193Provider, chain: ChainConfig): Promise<boolean> {
  const client = walletClient(provider)
  if ((await getChainId(client)) === chain.id) return true
  try {
    await switchChain(client, { id: chain.id })
  } catch (error) {
    if (walletProblemOf(error) !== 'unsupportedChain' || !chain.rpcUrl) throw error
    await addChain(client, { chain: toViemChain(chain) })
    await switchChain(client, { id: chain.id })
  }
  return (await getChainId(client)) === chain.id
}

// balanceOf and allowance as raw eth_call: viem's readContract brings its `call` action (CCIP
// lookups, deployless bytecode, multicall batching), a few KB this budget cannot spare.
async function readUint(client: Client, to: Hex, data: string): Promise<bigint> {
  const answer = (await client.request({ method: 'eth_call', params: [{ to, data }, 'latest'] } as never)) as string
  if (!/^0x[0-9a-fA-F]{1,64}$/.test(answer)) throw new Error(`not a uint256: ${answer}`)
  return BigInt(answer)
}
const word = (address: Hex) => address.slice(2).toLowerCase().padStart(64, '0')

export async function tokenBalance(client: Client, token: Hex, owner: Hex): Promise<bigint> {
  return readUint(client, token, `0x70a08231${word(owner)}`)
}

export async function nativeBalance(client: Client, owner: Hex): Promise<bigint> {
  return BigInt((await client.request({ method: 'eth_getBalance', params: [owner, 'latest'] } as never)) as string)
}

export async function allowance(client: Client, token: Hex, owner: Hex, spender: Hex): Promise<bigint> {
  return readUint(client, token, `0xdd62ed3e${word(owner)}${word(spender)}`)
}

export function approveData(spender: Hex, amount: bigint): Hex {
  return encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, amount] })
}

export async function sendApprove(
  provider: Eip1193Provider,
  chain: ChainConfig,
  account: Hex,
  token: Hex,
  spender: Hex,
  amount: bigint,
): Promise<Hex> {
  return send(provider, chain, account, { to: token, data: approveData(spender, amount), value: 0n })
}

export async function send(
  provider: Eip1193Provider,
  chain: ChainConfig,
  account: Hex,
  tx: { to: Hex; data: Hex; value: bigint },
): Promise<Hex> {
  // The wallet's chain is checked right before it signs. Raw eth_sendTransaction (the wallet fills
  // gas and nonce, as viem does for a wallet's own account) spares viem's transaction preparation,
  // several KB of gzip the deposit's budget cannot carry.
  const current = Number(await provider.request({ method: 'eth_chainId' }))
  if (current !== chain.id) throw Object.assign(new Error(`the wallet is on chain ${current}, not ${chain.id}`), { name: 'ChainMismatchError' })
  const params = [{ from: account, to: tx.to, data: tx.data, value: hex(tx.value), chainId: hex(BigInt(chain.id)) }]
  return (await provider.request({ method: 'eth_sendTransaction', params })) as Hex
}

export type Replacement = { reason: 'repriced' | 'replaced' | 'cancelled'; hash: Hex }

/** What identifies a transaction's nonce slot, so a replacement is found even once it is dropped. */
export type SentTransaction = { from: Hex; nonce: number; to?: Hex | null; input?: Hex; value?: bigint }

export async function sentTransaction(client: Client, hash: Hex): Promise<SentTransaction | undefined> {
  try {
    const tx = await getTransaction(client, { hash })
    return { from: tx.from, nonce: tx.nonce, to: tx.to, input: tx.input, value: tx.value }
  } catch {
    return undefined
  }
}

export async function waitReceipt(
  client: Client,
  hash: Hex,
  onReplaced: (r: Replacement) => void,
  replacement?: SentTransaction,
  signal?: AbortSignal,
) {
  // No time limit (a transaction can wait long in the mempool), but the signal stops the polling.
  const receipt = await waitForTransactionReceipt(client, {
    hash,
    replacement,
    signal,
    pollingInterval: 1_000,
    timeout: 0,
    onReplaced: (r) => onReplaced({ reason: r.reason, hash: r.transaction.hash }),
  })
  return {
    success: receipt.status === 'success',
    txHash: receipt.transactionHash as string,
    logs: receipt.logs.map((log) => ({ address: log.address as string, topics: [...log.topics] as string[] })),
  }
}

export type Call = { to: Hex; data: Hex; value: bigint }

export type AssetChange = { token: string; diff: bigint }

export type Simulation =
  | { kind: 'ok'; changes: AssetChange[]; gasUsed: bigint; gasPrice: bigint }
  | { kind: 'reverted'; reason?: string }
  /** No eth_simulateV1: eth_call and eth_estimateGas, of the first call only when a later one depends on it. */
  | { kind: 'estimated'; gasUsed: bigint; gasPrice: bigint }

// Raw JSON-RPC below, not viem's simulateCalls/sendCalls/getCallsStatus: those weigh 15 KB gzip
// together (ox ABI coders, block formatters, the sendTransaction fallback) against an 80 KB budget.
const hex = (n: bigint) => `0x${n.toString(16)}`
const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
const ETH = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'

type SimulatedCall = {
  status: string
  returnData?: Hex
  gasUsed: Hex
  logs?: Array<{ address: string; topics: string[]; data: Hex }>
  error?: { message?: string; data?: Hex }
}

const request = (client: Client, method: string, params: unknown[]) => client.request({ method, params } as never) as Promise<unknown>

/**
 * Runs the calls on the chain as the buyer, in one simulated block (eth_simulateV1), and reads
 * what leaves and enters the wallet from the simulated Transfer logs and the calls' own value.
 * Where the RPC lacks eth_simulateV1: eth_call and eth_estimateGas.
 */
export async function simulate(client: Client, account: Hex, calls: Call[]): Promise<Simulation> {
  const txs = calls.map((c) => ({ from: account, to: c.to, data: c.data, value: hex(c.value) }))
  let blocks: Array<{ calls: SimulatedCall[] }>
  try {
    blocks = (await request(client, 'eth_simulateV1', [{ blockStateCalls: [{ calls: txs }], validation: false }, 'latest'])) as typeof blocks
  } catch (error) {
    if (!isUnsupported(error)) throw error
    return estimate(client, txs, calls.length)
  }
  const results = blocks[0]?.calls ?? []
  if (results.length !== calls.length) throw new Error('the simulation answered another number of calls')
  const failed = results.find((r) => r.status !== '0x1')
  if (failed) return { kind: 'reverted', reason: reasonOf(failed.returnData ?? failed.error?.data, failed.error?.message) }
  const owner = account.toLowerCase()
  const changes = new Map<string, bigint>()
  const add = (token: string, diff: bigint) => changes.set(token, (changes.get(token) ?? 0n) + diff)
  // An account's native balance moves only with the value it sends (gas aside).
  for (const c of calls) if (c.value > 0n) add(ETH, -c.value)
  for (const log of results.flatMap((r) => r.logs ?? [])) {
    if (log.topics[0]?.toLowerCase() !== TRANSFER || log.topics.length < 3) continue
    const from = `0x${log.topics[1].slice(26)}`.toLowerCase()
    const to = `0x${log.topics[2].slice(26)}`.toLowerCase()
    // ERC-20: the amount is the data; ERC-721: one token, its id indexed.
    const amount = log.topics.length === 4 ? 1n : BigInt(log.data === '0x' ? 0 : log.data)
    const token = log.address.toLowerCase()
    if (from === owner) add(token, -amount)
    if (to === owner) add(token, amount)
  }
  return {
    kind: 'ok',
    changes: [...changes].map(([token, diff]) => ({ token, diff })),
    gasUsed: results.reduce((sum, r) => sum + BigInt(r.gasUsed), 0n),
    gasPrice: BigInt((await request(client, 'eth_gasPrice', [])) as string),
  }
}

async function estimate(client: Client, txs: Array<Record<string, string>>, count: number): Promise<Simulation> {
  // Without state carried between calls, only the first runs as is (an approval changes what the
  // deposit after it sees); its gas stands for each call's.
  try {
    await request(client, 'eth_call', [txs[0], 'latest'])
    const gas = BigInt((await request(client, 'eth_estimateGas', [txs[0]])) as string)
    return { kind: 'estimated', gasUsed: gas * BigInt(count), gasPrice: BigInt((await request(client, 'eth_gasPrice', [])) as string) }
  } catch (error) {
    const revert = walk(error, (e) => /revert/i.test(String((e as Error | null)?.message))) as { data?: Hex; message?: string } | undefined
    if (revert) return { kind: 'reverted', reason: reasonOf(revert.data, revert.message) }
    throw error
  }
}

/** Error(string) decoded from the revert data, else the node's own words after "execution reverted". */
export function reasonOf(data?: Hex, message?: string): string | undefined {
  if (data?.startsWith('0x08c379a0') && data.length >= 138) {
    const length = Number.parseInt(data.slice(74, 138), 16)
    const bytes = data.slice(138, 138 + length * 2).match(/../g) ?? []
    const text = new TextDecoder().decode(new Uint8Array(bytes.map((b) => Number.parseInt(b, 16))))
    if (text) return text
  }
  const said = message?.match(/execution reverted:?\s*(.+)/i)?.[1]?.trim()
  return said || undefined
}

function isUnsupported(error: unknown): boolean {
  return !!walk(error, (e) => {
    const { code, message } = (e ?? {}) as { code?: number; message?: string }
    return code === -32601 || code === 4200 || /not (supported|found|available)|unknown method|does not exist/i.test(String(message))
  })
}

/** Whether the wallet offers atomic batches (EIP-5792) on this chain for this account. */
export async function canBatch(provider: Eip1193Provider, account: Hex, chainId: number): Promise<boolean> {
  try {
    const chain = hex(BigInt(chainId))
    const answer = (await provider.request({ method: 'wallet_getCapabilities', params: [account, [chain]] })) as Record<string, { atomic?: { status?: string } }>
    const status = answer?.[chain]?.atomic?.status ?? answer?.[String(chainId)]?.atomic?.status
    return status === 'supported' || status === 'ready'
  } catch {
    return false
  }
}

/** One confirmation for every call, run atomically by the wallet (EIP-5792 2.0.0); answers the batch's id. */
export async function sendBatch(provider: Eip1193Provider, chain: ChainConfig, account: Hex, calls: Call[]): Promise<string> {
  const answer = (await provider.request({
    method: 'wallet_sendCalls',
    params: [
      {
        version: '2.0.0',
        chainId: hex(BigInt(chain.id)),
        from: account,
        atomicRequired: true,
        calls: calls.map((c) => ({ to: c.to, data: c.data, value: hex(c.value) })),
      },
    ],
  })) as { id?: string } | string
  const id = typeof answer === 'string' ? answer : answer?.id
  if (typeof id !== 'string' || !id) throw new Error('the wallet answered wallet_sendCalls without an id')
  return id
}

export type BatchStatus =
  | { status: 'pending' }
  | { status: 'success'; hashes: string[] }
  | { status: 'failure'; reverted: boolean }

export async function batchStatus(provider: Eip1193Provider, id: string): Promise<BatchStatus> {
  const answer = (await provider.request({ method: 'wallet_getCallsStatus', params: [id] })) as {
    status: number
    receipts?: Array<{ transactionHash: string }>
  }
  const code = Number(answer?.status)
  if (code >= 200 && code < 300) return { status: 'success', hashes: (answer.receipts ?? []).map((r) => r.transactionHash) }
  // 400: the wallet never sent it; 500 and 600: it reverted, wholly or partly.
  if (code >= 400) return { status: 'failure', reverted: code >= 500 }
  return { status: 'pending' }
}
