// Reading the chain for a deposit paid by address, through the registry's own RPC (`rpcUrl`), never
// a wallet: the block a quote was given at, and the ERC-20 transfers into an address since then.
// Plain JSON-RPC (rpcProvider.ts): two methods, no client.
import { rpcProvider } from './rpcProvider'

/** keccak256("Transfer(address,address,uint256)"), the ERC-20 event's first topic. */
export const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'

export type TransferIn = { txHash: string; token: string; units: string; blockNumber: string }

type Log = { address: string; topics: string[]; data: string; transactionHash: string; blockNumber: string; removed?: boolean }

export const blockNumber = async (rpcUrl: string): Promise<string> =>
  BigInt((await rpcProvider(rpcUrl).request({ method: 'eth_blockNumber' })) as string).toString()

/**
 * Every ERC-20 Transfer into `to` from block `fromBlock` on, of any token (so one of another token
 * is seen too, and said). A log the node dropped in a reorganisation (`removed`) is not one.
 */
export async function transfersInto(rpcUrl: string, to: string, fromBlock: string): Promise<TransferIn[]> {
  const topic = `0x${to.slice(2).toLowerCase().padStart(64, '0')}`
  const logs = (await rpcProvider(rpcUrl).request({
    method: 'eth_getLogs',
    params: [{ fromBlock: `0x${BigInt(fromBlock).toString(16)}`, toBlock: 'latest', topics: [TRANSFER_TOPIC, null, topic] }],
  })) as Log[]
  return logs
    .filter((log) => !log.removed && log.topics.length === 3 && log.topics[2]?.toLowerCase() === topic)
    .map((log) => ({
      txHash: log.transactionHash,
      token: log.address,
      units: BigInt(log.data === '0x' ? 0 : log.data).toString(),
      blockNumber: log.blockNumber,
    }))
}
