// One public client per configured chain, through the partner's own RPC, used once that RPC has
// said it is on that chain (asked again after a failure): the deposit's receipt and the wallet
// link's signature are read from the chain the partner named, never from another.
import { createPublicClient, http } from 'viem'

export type ChainsOption = Readonly<Record<number, { rpcUrl: string }>>

export type ChainClient = ReturnType<typeof createPublicClient>

/** The chain's client; rejects with ChainMismatch when its RPC answers for another chain. */
export type ChainClients = (chainId: number) => Promise<ChainClient>

export class ChainMismatch extends Error {}

/**
 * What a failed chain read may say in the kit's log: a chain mismatch as it is, anything else by its
 * name only (viem's messages carry the RPC URL, and a provider's key sits in its path).
 */
export const chainProblem = (chainId: number, error: unknown): string =>
  `chain ${chainId}: ${error instanceof ChainMismatch ? error.message : error instanceof Error ? error.name : 'error'}`

export function createChainClients(chains: ChainsOption, timeoutMs: number): ChainClients {
  const clients = new Map<number, Promise<ChainClient>>()
  return function client(chainId) {
    let ready = clients.get(chainId)
    if (!ready) {
      const rpc = createPublicClient({ transport: http(chains[chainId].rpcUrl, { retryCount: 0, timeout: timeoutMs }) })
      ready = rpc.getChainId().then((actual) => {
        if (actual !== chainId) throw new ChainMismatch(`the rpcUrl of chain ${chainId} answers for chain ${actual}`)
        return rpc
      })
      ready.catch(() => clients.delete(chainId))
      clients.set(chainId, ready)
    }
    return ready
  }
}
