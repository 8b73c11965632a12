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

// The one ERC-20 function the deposit encodes (balanceOf and allowance are read by their selectors).
const erc20Abi = [
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
export function readClient(chain: ChainConfig, provider?: Eip1193Provider, signal?: AbortSignal): Client {
  const source = chain.rpcUrl ? rpcProvider(chain.rpcUrl) : provider
  if (!source) throw new Error(`no way to read chain ${chain.id}`)
  // Once the signal is aborted (the widget unmounted), nothing more goes to the chain through this
  // client, whoever asks: not viem's own polling, nor the transport's retry of a failed read.
  const guarded: Eip1193Provider = signal
    ? { request: (args) => (signal.aborted ? Promise.reject(new DOMException('the widget stopped reading the chain', 'AbortError')) : source.request(args)) }
    : source
  const transport = chain.rpcUrl ? custom(guarded, { retryCount: 3 }) : custom(guarded)
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

/** A balance change of one asset, or (diff 0) an approval or operator grant the buyer's account gave. */
export type AssetChange = { token: string; diff: bigint; grant?: { spender: string; amount: bigint; all: boolean } }

export type Simulation =
  | { kind: 'ok'; changes: AssetChange[]; gasUsed: bigint; gasPrice: bigint }
  | { kind: 'reverted'; reason?: string }
  /** No eth_simulateV1: each call's eth_call, and the first one's eth_estimateGas. Judges no outflow. */
  | { kind: 'estimated'; gasUsed: bigint; gasPrice: bigint }

// Raw JSON-RPC below, not viem's simulateCalls/sendCalls/getCallsStatus: those weigh 15 KB gzip
// together (ox ABI coders, block formatters, the sendTransaction fallback) against an 80 KB budget.
const hex = (n: bigint) => `0x${n.toString(16)}`
const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
const ETH = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'
const APPROVAL = '0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925'
const APPROVAL_FOR_ALL = '0x17307eab39ab6107e8899845ad3d59bd9653f200f220920489ca2b5937696c31'
const TRANSFER_SINGLE = '0xc3d58168c5ae7397731d063d5bbf3d657854427343f4c083240f7aacaa2d0f62'
const TRANSFER_BATCH = '0x4a39dc06d4c0dbc64b70af90fd698a233a518aa5d07e595d983b8c0526c8f7fb'

/** TransferBatch's data: abi-encoded (uint256[] ids, uint256[] values). */
function batchOf(token: string, data: Hex): Array<[string, bigint]> {
  const at = (i: number) => BigInt(`0x${data.slice(2 + i * 64, 66 + i * 64) || '0'}`)
  const ids = Number(at(0) / 32n)
  const values = Number(at(1) / 32n)
  const n = Number(at(ids))
  if (n !== Number(at(values)) || n > 1000) throw new Error('a malformed TransferBatch')
  return Array.from({ length: n }, (_, k) => [`${token}#${at(ids + 1 + k)}`, at(values + 1 + k)])
}

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
  const grants: AssetChange[] = []
  const add = (token: string, diff: bigint) => changes.set(token, (changes.get(token) ?? 0n) + diff)
  const address = (topic: string) => `0x${topic.slice(26)}`.toLowerCase()
  // An account's native balance moves only with the value it sends (gas aside).
  for (const c of calls) if (c.value > 0n) add(ETH, -c.value)
  for (const log of results.flatMap((r) => r.logs ?? [])) {
    const [event, ...topics] = log.topics.map((t) => t.toLowerCase())
    const token = log.address.toLowerCase()
    if ((event === TRANSFER && topics.length >= 2) || (event === TRANSFER_SINGLE && topics.length >= 3) || (event === TRANSFER_BATCH && topics.length >= 3)) {
      // TransferSingle/TransferBatch (ERC-1155) name the operator first.
      const [from, to] = (event === TRANSFER ? topics : topics.slice(1)).map(address)
      // ERC-20: the amount is the data; ERC-721: one token, its id indexed; ERC-1155: (id, value) pairs, each its own asset.
      const moved: Array<[string, bigint]> =
        event === TRANSFER
          ? [[token, topics.length === 3 ? 1n : BigInt(log.data === '0x' ? 0 : log.data)]]
          : event === TRANSFER_SINGLE
            ? [[`${token}#${BigInt(log.data.slice(0, 66))}`, BigInt(`0x${log.data.slice(66, 130)}`)]]
            : batchOf(token, log.data)
      for (const [asset, amount] of moved) {
        if (from === owner) add(asset, -amount)
        if (to === owner) add(asset, amount)
      }
    } else if ((event === APPROVAL || event === APPROVAL_FOR_ALL) && topics.length >= 2 && address(topics[0]) === owner) {
      // A grant over the buyer's assets: judged against the one approval the deposit expects.
      const amount = event === APPROVAL ? (topics.length === 3 ? 1n : BigInt(log.data === '0x' ? 0 : log.data)) : BigInt(log.data === '0x' ? 0 : log.data)
      grants.push({ token, diff: 0n, grant: { spender: address(topics[1]), amount, all: event === APPROVAL_FOR_ALL } })
    }
  }
  return {
    kind: 'ok',
    changes: [...[...changes].map(([token, diff]) => ({ token, diff })), ...grants],
    gasUsed: results.reduce((sum, r) => sum + BigInt(r.gasUsed), 0n),
    gasPrice: BigInt((await request(client, 'eth_gasPrice', [])) as string),
  }
}

async function estimate(client: Client, txs: Array<Record<string, string>>, count: number): Promise<Simulation> {
  // Each call runs alone (no state carries from one eth_call to the next). A revert of the first
  // call is its own; a later call may only revert for want of what an earlier one does (the
  // approval it needs), so its revert is not taken for the deposit's. Its gas stands for each call's.
  let gas = 0n
  for (const [i, tx] of txs.entries()) {
    try {
      await request(client, 'eth_call', [tx, 'latest'])
      if (i === 0) gas = BigInt((await request(client, 'eth_estimateGas', [tx])) as string)
    } catch (error) {
      const revert = walk(error, (e) => /revert/i.test(String((e as Error | null)?.message))) as { data?: Hex; message?: string } | undefined
      if (revert && i === 0) return { kind: 'reverted', reason: reasonOf(revert.data, revert.message) }
      if (!revert) throw error
    }
  }
  return { kind: 'estimated', gasUsed: gas * BigInt(count), gasPrice: BigInt((await request(client, 'eth_gasPrice', [])) as string) }
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

/**
 * Only a node that says it has no such method: JSON-RPC -32601, EIP-1193 4200, or those words. A
 * transient error ("header not found" from a node a block behind, a timeout) is not that: it throws.
 */
function isUnsupported(error: unknown): boolean {
  return !!walk(error, (e) => {
    const { code, message } = (e ?? {}) as { code?: number; message?: string }
    return code === -32601 || code === 4200 || /^(the )?method (eth_simulatev1 )?(not found|does not exist)|eth_simulatev1 (is )?not (supported|available)|method not supported/i.test(String(message ?? '').trim())
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
