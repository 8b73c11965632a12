// What a deposit's calls would do to the buyer's wallet, run on the chain before the buyer signs:
// eth_simulateV1, or eth_call and eth_estimateGas where the node lacks it. Part of the wallet code
// (chainActions.ts), loaded once a wallet is chosen.
import type { Client, Hex } from 'viem'
import { walk } from '../errors/WidgetError'
import { hex } from './hex'

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
    return (
      code === -32601 ||
      code === 4200 ||
      /^(the )?method (eth_simulatev1 )?(not found|does not exist)|eth_simulatev1 (is )?not (supported|available)|method not supported/i.test(
        String(message ?? '').trim(),
      )
    )
  })
}
