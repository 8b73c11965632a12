// The crypto deposit's receipt, read by the kit from the chain through the partner's own RPC, never
// taken from the browser. What is checked here: the RPC is on the chain it is configured for, and
// the transaction is mined there and succeeded. What is read: its ERC-20 transfers, whether one
// moves a token out of its sender (a deposit sent from a wallet), and its block. Which deposit
// address it pays is the service's to judge from the logs; the kit knows only the addresses it
// asked for itself (depositAddress.ts, a deposit paid by address).
import { type ChainClient, type ChainClients, chainProblem } from './chainClients'

export type { ChainsOption } from './chainClients'

export type DepositReceipt = { txHash: string; logs: Array<{ address: string; topics: string[] }> }

/** An ERC-20 Transfer in the receipt: its token, its ends (lower case) and its amount in base units. */
export type TokenTransfer = { token: string; from: string; to: string; units: bigint }

export type ReceiptCheck =
  | { ok: true; from: string; blockNumber: bigint; paysOut: boolean; transfers: TokenTransfer[]; receipt: DepositReceipt }
  | { ok: false; status: 422 | 502; problem: string; log?: string }

/** keccak256("Transfer(address,address,uint256)"), the ERC-20 event. */
const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'

export function createReceiptReader(client: ChainClients) {
  return async function readReceipt(chainId: number, hash: `0x${string}`): Promise<ReceiptCheck> {
    let receipt: Awaited<ReturnType<ChainClient['getTransactionReceipt']>>
    try {
      receipt = await (await client(chainId)).getTransactionReceipt({ hash })
    } catch (error) {
      if (error instanceof Error && error.name === 'TransactionReceiptNotFoundError') {
        return { ok: false, status: 422, problem: `txHash: no such mined transaction on chain ${chainId}` }
      }
      return { ok: false, status: 502, problem: `The chain ${chainId} could not be read.`, log: chainProblem(chainId, error) }
    }
    if (receipt.status !== 'success') return { ok: false, status: 422, problem: `txHash: the transaction failed on chain ${chainId}` }
    const sender = receipt.from.toLowerCase()
    const fromTopic = `0x${sender.slice(2).padStart(64, '0')}`
    const paysOut = receipt.logs.some((log) => log.topics[0] === TRANSFER && log.topics.length === 3 && log.topics[1]?.toLowerCase() === fromTopic)
    const transfers = receipt.logs.flatMap((log): TokenTransfer[] => {
      const [topic, from, to] = log.topics
      if (topic !== TRANSFER || log.topics.length !== 3 || !from || !to || !/^0x[0-9a-fA-F]{64}$/.test(log.data)) return []
      const end = (word: string) => `0x${word.slice(-40)}`.toLowerCase()
      return [{ token: log.address.toLowerCase(), from: end(from), to: end(to), units: BigInt(log.data) }]
    })
    return {
      ok: true,
      from: sender,
      blockNumber: receipt.blockNumber,
      paysOut,
      transfers,
      receipt: { txHash: receipt.transactionHash, logs: receipt.logs.map((log) => ({ address: log.address, topics: [...log.topics] })) },
    }
  }
}
