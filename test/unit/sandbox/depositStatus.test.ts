// The sandbox's crypto deposit status on the partner path, POST /v1/deposit/status, as the contract
// states it ("the partner path mirrors it under /v1/deposit/"): the widget path's request and
// answer, with the API key instead of the origin, counted against the key's rate, not the IP's.
// Then the kit's /deposit/status reaches it, for a deposit the kit read from the chain.
import { erc20Abi, http, createWalletClient, type Address, type Hex } from 'viem'
import { beforeEach, describe, expect, it } from 'vitest'
// @ts-expect-error: plain ESM module of the sandbox
import { KEY_RATE } from '../../sandbox/rateLimit.mjs'
import { linkWallet, devKey } from '../server/walletKeys'
import { type BankStack, KEY, ORIGIN, bankStackForFile, until } from './bankStack'

let s: BankStack
bankStackForFile((started) => (s = started), 30_000)
beforeEach(async () => {
  await s.reset()
  await s.control('/control', { processingMs: 100 })
})

type Quote = { provider: string; approval?: { token: Address; spender: Address; amount: string }; transaction: { to: Address; data: Hex } }

/** A real deposit on the source chain, as the widget makes it: quote, approve, send. */
async function deposit(from: Address, amount = '5') {
  const res = await fetch(`${s.base}/deposit/quote`, {
    method: 'POST',
    headers: { Origin: ORIGIN, 'Content-Type': 'application/json' },
    body: JSON.stringify({ source: { chainId: 8453, token: s.config.sources[0].token, address: from }, amount, method: 'crypto' }),
  })
  expect(res.status).toBe(200)
  const quote = (await res.json()) as Quote
  const wallet = createWalletClient({ chain: s.srcPublic.chain, transport: http(), account: from })
  if (quote.approval) {
    const { token, spender, amount: units } = quote.approval
    await s.srcPublic.waitForTransactionReceipt({
      hash: await wallet.writeContract({ address: token, abi: erc20Abi, functionName: 'approve', args: [spender, BigInt(units)] }),
    })
  }
  const txHash = await wallet.sendTransaction({ to: quote.transaction.to, data: quote.transaction.data })
  const receipt = await s.srcPublic.waitForTransactionReceipt({ hash: txHash })
  expect(receipt.status).toBe('success')
  const logs = receipt.logs.map((log) => ({ address: log.address, topics: [...log.topics] }))
  return { provider: quote.provider, txHash, receipt: { txHash, logs } }
}

const noKey = { 'Content-Type': 'application/json' }

describe('POST /v1/deposit/status', () => {
  it("answers the widget path's record for the same request: pending, then done with the delivery's hash", async () => {
    const d = await deposit(s.config.accounts[5])
    const request = { provider: d.provider, receipt: d.receipt }
    const first = await s.v1('/deposit/status', request)
    expect(first).toEqual({ status: 200, body: { status: 'pending', txHashes: { origin: d.txHash } } })
    const done = await until(
      () => s.v1('/deposit/status', request),
      (r) => r.body.status !== 'pending',
    )
    expect(done.status).toBe(200)
    expect(done.body).toEqual({ status: 'done', txHashes: { origin: d.txHash, delivered: expect.stringMatching(/^0x[0-9a-f]{64}$/) } })
    // The same transfer on the widget path: the same record.
    const widget = await fetch(`${s.base}/deposit/status`, {
      method: 'POST',
      headers: { Origin: ORIGIN, 'Content-Type': 'application/json' },
      body: JSON.stringify(request),
    })
    expect({ status: widget.status, body: await widget.json() }).toEqual(done)
  }, 20_000)

  it('needs the key; refuses what the widget path refuses, with 400 naming the field', async () => {
    const d = await deposit(s.config.accounts[6])
    const request = { provider: d.provider, receipt: d.receipt }
    const unauthorized = { status: 401, body: { error: { code: 'unauthorized', message: 'Missing, malformed or unknown key.' } } }
    expect(await s.v1('/deposit/status', request, noKey)).toEqual(unauthorized)
    expect(await s.v1('/deposit/status', request, { ...noKey, Authorization: `Bearer ${KEY}x` })).toEqual(unauthorized)
    // An allowed origin is no key.
    expect(await s.v1('/deposit/status', request, { ...noKey, Origin: ORIGIN })).toEqual(unauthorized)
    const bad = (message: string) => ({ status: 400, body: { error: { code: 'invalid_request', message } } })
    expect(await s.v1('/deposit/status', { receipt: d.receipt })).toEqual(bad('provider: required'))
    expect(await s.v1('/deposit/status', { ...request, provider: 'elsewhere' })).toEqual(bad('provider: unknown provider "elsewhere"'))
    expect(await s.v1('/deposit/status', { provider: d.provider, receipt: { txHash: d.txHash } })).toEqual(bad('receipt.logs: required'))
    // A receipt the browser made up: logs that are not the transaction's.
    expect(await s.v1('/deposit/status', { provider: d.provider, receipt: { txHash: d.txHash, logs: [] } })).toEqual(
      bad('receipt.logs: do not match the transaction on the source chain'),
    )
    // A hash that is on no chain.
    expect(await s.v1('/deposit/status', { provider: d.provider, receipt: { txHash: `0x${'ab'.repeat(32)}`, logs: [] } })).toEqual(
      bad('receipt.txHash: not found on the source chain'),
    )
  }, 20_000)

  it("is counted against the key's rate, not the widget path's per-IP limit", async () => {
    const ask = () => s.v1('/deposit/status', {})
    // More than the IP's 5 in 10 s: the partner path does not know that limit.
    const first = await Promise.all(Array.from({ length: KEY_RATE.limit }, ask))
    expect(first.map((r) => r.status)).toEqual(Array(KEY_RATE.limit).fill(400))
    // One more within the key's window: refused for the key.
    const over = await ask()
    expect(over).toMatchObject({ status: 429, body: { error: { code: 'rate_limited' } } })
  })
})

describe("the kit's /deposit/status in the sandbox", () => {
  it('the kit records a sent deposit read from the chain, and follows it through the partner path to done', async () => {
    expect(devKey(4).address).toBe(s.config.accounts[4])
    // The buyer's wallet linked first, by its signature of the kit's message (as the widget asks it).
    expect(await linkWallet(s.partner, 4, 8453)).toEqual({ status: 200, body: { linked: true } })
    const d = await deposit(s.config.accounts[4])
    const sent = await s.partner('/deposit/sent', { provider: d.provider, txHash: d.txHash, chainId: 8453 })
    expect(sent).toMatchObject({ status: 200, body: { id: expect.any(String) } })
    const status = await until(
      () => s.partner('/deposit/status', { id: sent.body.id }),
      (r) => r.body.status !== 'pending',
    )
    expect(status).toEqual({ status: 200, body: { status: 'done', txHashes: { origin: d.txHash, delivered: expect.stringMatching(/^0x/) } } })
    const log = (await (await fetch(`${s.base}/__sandbox/log`)).json()) as Array<{ method: string; path: string; status: number }>
    const asked = log.filter((e) => e.path === '/v1/deposit/status')
    expect(asked.length).toBeGreaterThan(0)
    expect(asked.every((e) => e.status === 200)).toBe(true)
  }, 20_000)
})
