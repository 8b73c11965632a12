// Atomic batches (EIP-5792): one confirmation for the approval and the deposit, where the wallet
// offers it. Part of the wallet code (chainActions.ts).
import type { Hex } from 'viem'
import type { ChainConfig } from '../config/config'
import type { Eip1193Provider } from './eip6963'
import { hex } from './hex'
import type { Call } from './simulate'

/** Whether the wallet offers atomic batches (EIP-5792) on this chain for this account. */
export async function canBatch(provider: Eip1193Provider, account: Hex, chainId: number): Promise<boolean> {
  try {
    const chain = hex(BigInt(chainId))
    const answer = (await provider.request({ method: 'wallet_getCapabilities', params: [account, [chain]] })) as Record<
      string,
      { atomic?: { status?: string } }
    >
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

export type BatchStatus = { status: 'pending' } | { status: 'success'; hashes: string[] } | { status: 'failure'; reverted: boolean }

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
