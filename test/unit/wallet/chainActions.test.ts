import type { Client } from 'viem'
import { describe, expect, it } from 'vitest'
import { batchStatus, canBatch, reasonOf, sendBatch, simulate } from '../../../src/wallet/chainActions'

const ACCOUNT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const USDC = '0x5fbdb2315678afecb367f032d93f642f64180aa3'
const DEPOSITOR = '0x9fe46736679d2d9a65f0992f2272de9f3c7fa6e0'
const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
const topic = (address: string) => `0x${address.slice(2).toLowerCase().padStart(64, '0')}`
const uint = (n: bigint) => `0x${n.toString(16).padStart(64, '0')}`

/** A client whose RPC answers from a table, recording what it was asked. */
function fakeClient(answers: Record<string, unknown | ((params: unknown[]) => unknown)>) {
  const asked: Array<{ method: string; params: unknown[] }> = []
  const client = {
    async request({ method, params }: { method: string; params: unknown[] }) {
      asked.push({ method, params })
      const answer = answers[method]
      if (answer instanceof Error) throw answer
      if (answer === undefined) throw Object.assign(new Error(`no ${method}`), { code: -32601 })
      return typeof answer === 'function' ? (answer as (p: unknown[]) => unknown)(params) : answer
    },
  } as unknown as Client
  return { client, asked }
}

const calls = [
  { to: USDC as `0x${string}`, data: '0x095ea7b3' as `0x${string}`, value: 0n },
  { to: DEPOSITOR as `0x${string}`, data: '0xdeadbeef' as `0x${string}`, value: 0n },
]

describe('simulate: one eth_simulateV1 block, asset changes read from the simulated logs', () => {
  it('sums what leaves and enters the account, token by token, and the gas', async () => {
    const { client, asked } = fakeClient({
      eth_simulateV1: [
        {
          calls: [
            { status: '0x1', gasUsed: '0xb000', logs: [] },
            {
              status: '0x1',
              gasUsed: '0xc000',
              logs: [
                { address: USDC, topics: [TRANSFER, topic(ACCOUNT), topic(DEPOSITOR)], data: uint(25_000_000n) },
                // Someone else's transfer in the same call is not the buyer's.
                { address: USDC, topics: [TRANSFER, topic(DEPOSITOR), topic(USDC)], data: uint(7n) },
              ],
            },
          ],
        },
      ],
      eth_gasPrice: '0x3b9aca00',
    })
    const result = await simulate(client, ACCOUNT, calls)
    expect(result).toEqual({ kind: 'ok', changes: [{ token: USDC, diff: -25_000_000n }], gasUsed: 0xb000n + 0xc000n, gasPrice: 1_000_000_000n })
    const [params] = asked[0].params as [{ blockStateCalls: Array<{ calls: Array<{ from: string }> }> }]
    expect(params.blockStateCalls[0].calls.map((c) => c.from)).toEqual([ACCOUNT, ACCOUNT])
  })

  it('counts a native value as leaving the wallet, and an NFT (four topics) as one token', async () => {
    const nft = '0x1111111111111111111111111111111111111111'
    const { client } = fakeClient({
      eth_simulateV1: [
        { calls: [{ status: '0x1', gasUsed: '0x5208', logs: [{ address: nft, topics: [TRANSFER, topic(ACCOUNT), topic(DEPOSITOR), uint(9n)], data: '0x' }] }] },
      ],
      eth_gasPrice: '0x1',
    })
    const result = await simulate(client, ACCOUNT, [{ to: DEPOSITOR as `0x${string}`, data: '0x', value: 5n }])
    expect(result).toMatchObject({
      kind: 'ok',
      changes: [
        { token: '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee', diff: -5n },
        { token: nft, diff: -1n },
      ],
    })
  })

  it('a reverted call is said with its reason', async () => {
    const revert = `0x08c379a0${uint(32n).slice(2)}${uint(9n).slice(2)}${Buffer.from('allowance').toString('hex').padEnd(64, '0')}`
    const { client } = fakeClient({
      eth_simulateV1: [
        {
          calls: [
            { status: '0x1', gasUsed: '0x1' },
            { status: '0x0', gasUsed: '0x1', returnData: revert, error: { message: 'execution reverted' } },
          ],
        },
      ],
    })
    expect(await simulate(client, ACCOUNT, calls)).toEqual({ kind: 'reverted', reason: 'allowance' })
  })

  it('without eth_simulateV1: eth_call of every call, eth_estimateGas of the first', async () => {
    const { client, asked } = fakeClient({ eth_call: '0x', eth_estimateGas: '0xb000', eth_gasPrice: '0x2' })
    expect(await simulate(client, ACCOUNT, calls)).toEqual({ kind: 'estimated', gasUsed: 0xb000n * 2n, gasPrice: 2n })
    expect(asked.map((a) => a.method)).toEqual(['eth_simulateV1', 'eth_call', 'eth_estimateGas', 'eth_call', 'eth_gasPrice'])
    expect(asked.filter((a) => a.method === 'eth_call').map((a) => (a.params[0] as { to: string }).to)).toEqual([USDC, DEPOSITOR])
  })

  it('without eth_simulateV1: a lone deposit that reverts says why', async () => {
    const revert = Object.assign(new Error('execution reverted: nope'), { code: 3 })
    const { client } = fakeClient({ eth_call: revert, eth_estimateGas: '0xb000', eth_gasPrice: '0x2' })
    expect(await simulate(client, ACCOUNT, [calls[1]])).toEqual({ kind: 'reverted', reason: 'nope' })
  })

  it.each([
    [{ code: -32601, message: 'whatever' }, true],
    [{ code: 4200, message: 'whatever' }, true],
    [{ code: -32000, message: 'method not found' }, true],
    [{ code: -32000, message: 'eth_simulateV1 is not supported' }, true],
    [{ code: -32000, message: 'header not found' }, false],
    [{ code: -32000, message: 'block not found' }, false],
    [{ code: -32603, message: 'upstream not available' }, false],
  ])('%o taken for "no eth_simulateV1": %s', async (error, unsupported) => {
    const { client } = fakeClient({
      eth_simulateV1: Object.assign(new Error(error.message), error),
      eth_call: '0x',
      eth_estimateGas: '0x1',
      eth_gasPrice: '0x1',
    })
    const result = simulate(client, ACCOUNT, calls)
    if (unsupported) expect(await result).toMatchObject({ kind: 'estimated' })
    else await expect(result).rejects.toThrow(error.message)
  })

  it('grants by the buyer and ERC-1155 outflows are in the changes', async () => {
    const APPROVAL = '0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925'
    const BATCH = '0x4a39dc06d4c0dbc64b70af90fd698a233a518aa5d07e595d983b8c0526c8f7fb'
    const nft = '0x1111111111111111111111111111111111111111'
    // ids [1, 2], values [10, 20]
    const data = `0x${[0x40n, 0xa0n, 2n, 1n, 2n, 2n, 10n, 20n].map((n) => n.toString(16).padStart(64, '0')).join('')}`
    const { client } = fakeClient({
      eth_gasPrice: '0x1',
      eth_simulateV1: [
        {
          calls: [
            { status: '0x1', gasUsed: '0x1', logs: [{ address: USDC, topics: [APPROVAL, topic(ACCOUNT), topic(DEPOSITOR)], data: uint(5n) }] },
            { status: '0x1', gasUsed: '0x1', logs: [{ address: nft, topics: [BATCH, topic(DEPOSITOR), topic(ACCOUNT), topic(DEPOSITOR)], data }] },
          ],
        },
      ],
    })
    const result = await simulate(client, ACCOUNT, calls)
    if (result.kind !== 'ok') throw new Error(result.kind)
    expect(result.changes).toEqual(
      expect.arrayContaining([
        { token: `${nft}#1`, diff: -10n },
        { token: `${nft}#2`, diff: -20n },
        { token: USDC, diff: 0n, grant: { spender: DEPOSITOR, amount: 5n, all: false } },
      ]),
    )
  })

  it('a network failure is not taken for "unsupported": it throws', async () => {
    const { client } = fakeClient({ eth_simulateV1: Object.assign(new Error('fetch failed'), { code: -32603 }) })
    await expect(simulate(client, ACCOUNT, calls)).rejects.toThrow('fetch failed')
  })
})

describe('reasonOf', () => {
  it("decodes Error(string), else takes the node's words, else says nothing", () => {
    expect(reasonOf(undefined, 'execution reverted: balance')).toBe('balance')
    expect(reasonOf('0x', 'execution reverted')).toBeUndefined()
    expect(reasonOf('0x1234')).toBeUndefined()
  })
})

describe('EIP-5792 over the wallet', () => {
  const provider = (answers: Record<string, unknown>) => {
    const asked: Array<{ method: string; params?: unknown }> = []
    return {
      asked,
      async request({ method, params }: { method: string; params?: unknown }) {
        asked.push({ method, params })
        const answer = answers[method]
        if (answer instanceof Error) throw answer
        return answer
      },
    }
  }

  it('canBatch: atomic "supported" or "ready" on this chain; anything else, or an error, is no', async () => {
    expect(await canBatch(provider({ wallet_getCapabilities: { '0x2105': { atomic: { status: 'supported' } } } }), ACCOUNT, 8453)).toBe(true)
    expect(await canBatch(provider({ wallet_getCapabilities: { '0x2105': { atomic: { status: 'ready' } } } }), ACCOUNT, 8453)).toBe(true)
    expect(await canBatch(provider({ wallet_getCapabilities: { '0x2105': { atomic: { status: 'unsupported' } } } }), ACCOUNT, 8453)).toBe(false)
    expect(await canBatch(provider({ wallet_getCapabilities: { '0x1': { atomic: { status: 'supported' } } } }), ACCOUNT, 8453)).toBe(false)
    expect(await canBatch(provider({ wallet_getCapabilities: Object.assign(new Error('nope'), { code: 4200 }) }), ACCOUNT, 8453)).toBe(false)
  })

  it('sendBatch sends every call as one atomic request and answers its id', async () => {
    const p = provider({ wallet_sendCalls: { id: '0xabc' } })
    const chain = { id: 8453, name: 'Base' }
    expect(await sendBatch(p, chain, ACCOUNT, calls)).toBe('0xabc')
    expect(p.asked[0].params).toEqual([
      { version: '2.0.0', chainId: '0x2105', from: ACCOUNT, atomicRequired: true, calls: calls.map((c) => ({ to: c.to, data: c.data, value: '0x0' })) },
    ])
    await expect(sendBatch(provider({ wallet_sendCalls: {} }), chain, ACCOUNT, calls)).rejects.toThrow(/without an id/)
  })

  it('batchStatus reads 100 as pending, 200 with its hashes, 400 as never sent, 500 as reverted', async () => {
    expect(await batchStatus(provider({ wallet_getCallsStatus: { status: 100 } }), '0xabc')).toEqual({ status: 'pending' })
    expect(
      await batchStatus(provider({ wallet_getCallsStatus: { status: 200, receipts: [{ transactionHash: '0x1' }, { transactionHash: '0x2' }] } }), '0xabc'),
    ).toEqual({ status: 'success', hashes: ['0x1', '0x2'] })
    expect(await batchStatus(provider({ wallet_getCallsStatus: { status: 400 } }), '0xabc')).toEqual({ status: 'failure', reverted: false })
    expect(await batchStatus(provider({ wallet_getCallsStatus: { status: 500 } }), '0xabc')).toEqual({ status: 'failure', reverted: true })
  })
})
