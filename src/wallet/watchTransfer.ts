// Reading the chain for a deposit paid by address, through the registry's own RPC (`rpcUrl`, the
// reader chainActions.ts readClient gives), never a wallet: the block a quote was given at, and the
// ERC-20 transfers into an address since then. Two JSON-RPC methods.
import type { Client } from 'viem'

/** keccak256("Transfer(address,address,uint256)"), the ERC-20 event's first topic. */
export const TRANSFER_TOPIC: `0x${string}` = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'

export type TransferIn = { txHash: string; token: string; units: string; blockNumber: string }

type Log = { address: string; topics: string[]; data: string; transactionHash: string; blockNumber: string; removed?: boolean }

type Reader = Pick<Client, 'request'>

export const blockNumber = async (reader: Reader): Promise<string> => BigInt(await reader.request({ method: 'eth_blockNumber' })).toString()

/**
 * Every ERC-20 Transfer into `to` from block `fromBlock` on, of any token (so one of another token
 * is seen too, and said). A log the node dropped in a reorganisation (`removed`) is not one.
 */
export async function transfersInto(reader: Reader, to: string, fromBlock: string): Promise<TransferIn[]> {
  const topic = `0x${to.slice(2).toLowerCase().padStart(64, '0')}` as const
  const logs = (await reader.request({
    method: 'eth_getLogs',
    params: [{ fromBlock: `0x${BigInt(fromBlock).toString(16)}`, toBlock: 'latest', topics: [TRANSFER_TOPIC, null, topic] }],
  })) as unknown as Log[]
  const from = BigInt(fromBlock)
  // Only what the filter asked for: a node that answers more (another event with the address third,
  // such as an Approval to it, a malformed hash or token, an earlier block) is not believed.
  return logs
    .filter(
      (log) =>
        !log.removed &&
        log.topics.length === 3 &&
        log.topics[0]?.toLowerCase() === TRANSFER_TOPIC &&
        log.topics[2]?.toLowerCase() === topic &&
        /^0x[0-9a-fA-F]{40}$/.test(log.address) &&
        /^0x[0-9a-fA-F]{64}$/.test(log.transactionHash) &&
        /^0x[0-9a-fA-F]{64}$/.test(log.data) &&
        /^0x[0-9a-fA-F]+$/.test(log.blockNumber) &&
        BigInt(log.blockNumber) >= from,
    )
    .map((log) => ({
      txHash: log.transactionHash,
      token: log.address,
      units: BigInt(log.data).toString(),
      blockNumber: log.blockNumber,
    }))
}
