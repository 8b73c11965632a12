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
  getBalance,
  getChainId,
  getTransaction,
  readContract,
  requestAddresses,
  sendTransaction,
  switchChain,
  waitForTransactionReceipt,
} from 'viem/actions'
import type { ChainConfig } from '../config/config'
import { walletProblemOf } from '../errors/WalletError'
import type { Eip1193Provider } from './eip6963'
import { rpcProvider } from './rpcProvider'

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

export async function tokenBalance(client: Client, token: Hex, owner: Hex): Promise<bigint> {
  return readContract(client, { address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] })
}

export async function nativeBalance(client: Client, owner: Hex): Promise<bigint> {
  return getBalance(client, { address: owner })
}

export async function allowance(client: Client, token: Hex, owner: Hex, spender: Hex): Promise<bigint> {
  return readContract(client, { address: token, abi: erc20Abi, functionName: 'allowance', args: [owner, spender] })
}

export async function sendApprove(
  provider: Eip1193Provider,
  chain: ChainConfig,
  account: Hex,
  token: Hex,
  spender: Hex,
  amount: bigint,
): Promise<Hex> {
  const data = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, amount] })
  return send(provider, chain, account, { to: token, data, value: 0n })
}

export async function send(
  provider: Eip1193Provider,
  chain: ChainConfig,
  account: Hex,
  tx: { to: Hex; data: Hex; value: bigint },
): Promise<Hex> {
  const client = walletClient(provider, chain)
  // Passing `chain` makes viem check the wallet's chain right before it signs.
  return sendTransaction(client, { account, chain: client.chain, to: tx.to, data: tx.data, value: tx.value })
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
