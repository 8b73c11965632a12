// Everything that needs viem, in one lazily loaded module (with the simulation, simulate.ts, and the
// atomic batches, batch.ts, which it re-exports): actions imported one by one on createClient keep
// this chunk a third of the size of the full wallet/public clients.
import { type Chain, type Client, type Hex, createClient, custom, defineChain, encodeFunctionData } from 'viem'
import { addChain, getChainId, getTransaction, requestAddresses, switchChain, waitForTransactionReceipt } from 'viem/actions'
import type { ChainConfig } from '../config/config'
import { walletProblemOf } from '../errors/WalletError'
import type { Eip1193Provider } from './eip6963'
import { hex } from './hex'
import { rpcProvider } from './rpcProvider'

export { type BatchStatus, batchStatus, canBatch, sendBatch } from './batch'
export { type AssetChange, type Call, type Simulation, reasonOf, simulate } from './simulate'

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

export async function send(provider: Eip1193Provider, chain: ChainConfig, account: Hex, tx: { to: Hex; data: Hex; value: bigint }): Promise<Hex> {
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

export async function waitReceipt(client: Client, hash: Hex, onReplaced: (r: Replacement) => void, replacement?: SentTransaction, signal?: AbortSignal) {
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
