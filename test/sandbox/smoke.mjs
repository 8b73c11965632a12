#!/usr/bin/env node
// Smoke test of the sandbox stack on its own ports: `node test/sandbox/smoke.mjs [--cold]`
// (--cold drops the compiled-contracts cache first, to time a cold start).
import assert from 'node:assert/strict'
import { readdirSync, rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { createPublicClient, createWalletClient, erc20Abi, http } from 'viem'
import { waitPortFree } from './anvil.mjs'
import { startStack } from './stack.mjs'

const PORTS = { sourcePort: 18545, destPort: 18546, apiPort: 18787 }
const ORIGIN = 'http://127.0.0.1:4173'
const STATE = fileURLToPath(new URL('../../.sandbox-state/', import.meta.url))
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

if (process.argv.includes('--cold')) {
  for (const f of readdirSync(STATE, { withFileTypes: true })) if (/^contracts-.*\.json$/.test(f.name)) rmSync(STATE + f.name)
}

let t0 = Date.now()
let stack = await startStack({ ...PORTS, quiet: true })
const firstStart = Date.now() - t0
const { config } = stack
const results = []
async function check(name, fn) {
  const t = Date.now()
  await fn()
  results.push(name)
  console.log(`ok   ${name} (${Date.now() - t} ms)`)
}

async function api(path, body, { origin = ORIGIN, method = 'POST', raw } = {}) {
  const headers = { 'Content-Type': 'application/json' }
  if (origin) headers.Origin = origin
  const res = await fetch(config.apiBase + path, { method, headers, body: raw ?? (body === undefined ? undefined : JSON.stringify(body)) })
  const text = await res.text()
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined }
}
const control = (path, body) => api(path, body, { origin: null, method: body === undefined ? 'GET' : 'POST' })
const reset = () => control('/__sandbox/reset', {})

const [srcChain, dstChain] = config.chains
const user = config.accounts[1]
const src = createPublicClient({ transport: http(srcChain.rpcUrl), pollingInterval: 100 })
const dst = createPublicClient({ transport: http(dstChain.rpcUrl), pollingInterval: 100 })
const wallet = createWalletClient({ transport: http(srcChain.rpcUrl), account: user })
const balance = (client, token, who) => client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [who] })
const quoteBody = (amount, extra = {}) => ({
  source: { chainId: 8453, token: config.sources[0].token, address: user },
  amount,
  method: 'crypto',
  ...extra,
})

/** approve + deposit as the quote says; returns the receipt in the documented shape. */
async function pay(quote) {
  const chain = { id: 8453, name: 'sandbox', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [srcChain.rpcUrl] } } }
  const approve = await wallet.writeContract({
    chain,
    address: quote.approval.token,
    abi: erc20Abi,
    functionName: 'approve',
    args: [quote.approval.spender, BigInt(quote.approval.amount)],
  })
  await src.waitForTransactionReceipt({ hash: approve })
  const hash = await wallet.sendTransaction({ chain, to: quote.transaction.to, data: quote.transaction.data, value: BigInt(quote.transaction.value) })
  const receipt = await src.waitForTransactionReceipt({ hash })
  assert.equal(receipt.status, 'success')
  return { txHash: hash, logs: receipt.logs.map((l) => ({ address: l.address, topics: l.topics })) }
}

/** Polls /deposit/status under the IP limit (one call every 2.1 s) until terminal. */
async function track(receipt) {
  const seen = []
  for (let i = 0; i < 10; i++) {
    const res = await api('/deposit/status', { provider: 'sandbox-relay', receipt })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    seen.push(res.body.status)
    if (res.body.status !== 'pending') return { last: res.body, seen }
    await sleep(2_100)
  }
  throw new Error(`still pending: ${seen}`)
}

try {
  await check('quote → approve + deposit → status done, destination credited once', async () => {
    await reset()
    const q = await api('/deposit/quote', quoteBody('25.5'))
    assert.equal(q.status, 200, JSON.stringify(q.body))
    assert.equal(q.headers.get('access-control-allow-origin'), ORIGIN)
    assert.equal(q.body.provider, 'sandbox-relay')
    assert.match(q.body.quoteId, /^0x[0-9a-f]{64}$/)
    assert.deepEqual([q.body.amountIn, q.body.fee, q.body.amountOut], ['25.5', '0.0255', '25.4745'])
    assert.equal(q.body.approval.amount, '25500000')
    assert.equal(q.body.approval.spender, config.depositor)
    assert.equal(q.body.transaction.to, config.depositor)
    assert.equal(q.body.transaction.chainId, 8453)
    const before = await balance(dst, config.destination.token, user)
    const receipt = await pay(q.body)
    // Two concurrent first calls must not deliver twice.
    const [a, b] = await Promise.all([1, 2].map(() => api('/deposit/status', { provider: 'sandbox-relay', receipt })))
    assert.deepEqual([a.body.status, b.body.status], ['pending', 'pending'])
    await sleep(2_100)
    const { last } = await track(receipt)
    assert.equal(last.status, 'done')
    assert.equal(last.txHashes.origin, receipt.txHash)
    assert.match(last.txHashes.delivered, /^0x[0-9a-f]{64}$/)
    const again = await api('/deposit/status', { provider: 'sandbox-relay', receipt })
    assert.deepEqual(again.body, last)
    const after = await balance(dst, config.destination.token, user)
    assert.equal(after - before, 25_474_500n)
    const delivered = await dst.getTransactionReceipt({ hash: last.txHashes.delivered })
    assert.equal(delivered.status, 'success')
  })

  await check('disallowed origin: 403 envelope, no ACAO; allowed preflight 204', async () => {
    await reset()
    for (const origin of ['http://evil.example', null]) {
      const res = await api('/deposit/quote', quoteBody('1'), { origin })
      assert.equal(res.status, 403)
      assert.equal(typeof res.body.error.code, 'string')
      assert.equal(res.headers.get('access-control-allow-origin'), null)
    }
    const pre = await fetch(`${config.apiBase}/deposit/status`, {
      method: 'OPTIONS',
      headers: { Origin: ORIGIN, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' },
    })
    assert.equal(pre.status, 204)
    assert.equal(pre.headers.get('access-control-allow-origin'), ORIGIN)
    assert.equal(pre.headers.get('access-control-allow-methods'), 'POST, GET, OPTIONS')
    assert.equal(pre.headers.get('access-control-allow-headers'), 'Content-Type')
    assert.equal(pre.headers.get('access-control-max-age'), '600')
  })

  await check('6th request in 10 s: 429 rate_limited with Retry-After and CORS; preflights free', async () => {
    await reset()
    for (let i = 0; i < 8; i++) await fetch(`${config.apiBase}/deposit/quote`, { method: 'OPTIONS', headers: { Origin: ORIGIN } })
    for (let i = 0; i < 5; i++) assert.equal((await api('/deposit/quote', quoteBody('1'))).status, 200)
    const res = await api('/deposit/status', {})
    assert.equal(res.status, 429)
    assert.equal(res.body.error.code, 'rate_limited')
    assert.match(res.headers.get('retry-after'), /^([1-9]|10)$/)
    assert.equal(res.headers.get('access-control-allow-origin'), ORIGIN)
    assert.equal(res.headers.get('access-control-expose-headers'), 'Retry-After')
  })

  await check('errors: invalid_request names the field, bad JSON, 404, chain_not_allowed, no_route', async () => {
    const cases = [
      [{ ...quoteBody('1'), source: { token: config.sources[0].token, address: user } }, 400, 'invalid_request', /^source\.chainId: required/],
      [quoteBody('1,5'), 400, 'invalid_request', /^amount: must be a decimal string/],
      [quoteBody('1.1234567'), 400, 'invalid_request', /^amount: /],
      [quoteBody('0'), 400, 'invalid_request', /^amount: /],
      [quoteBody('1', { method: 'card' }), 400, 'invalid_request', /^method: /],
      [{ ...quoteBody('1'), source: { chainId: 1, token: config.sources[0].token, address: user } }, 403, 'chain_not_allowed', /source/],
      [quoteBody('1', { destination: { chainId: 10, token: config.destination.token, address: user } }), 403, 'chain_not_allowed', /destination/],
      [{ ...quoteBody('1'), source: { chainId: 8453, token: '0x000000000000000000000000000000000000dEaD', address: user } }, 400, 'no_route', /./],
      [quoteBody('500000.000001'), 400, 'no_route', /amount/],
    ]
    for (const [body, status, code, message] of cases) {
      await reset()
      const res = await api('/deposit/quote', body)
      assert.equal(res.status, status, JSON.stringify(res.body))
      assert.equal(res.body.error.code, code)
      assert.match(res.body.error.message, message)
    }
    await reset()
    assert.equal((await api('/deposit/quote', quoteBody('500000'))).status, 200)
    const bad = await api('/deposit/quote', undefined, { raw: '{"source":' })
    assert.deepEqual([bad.status, bad.body.error.code], [400, 'invalid_request'])
    const prov = await api('/deposit/status', { provider: 'other', receipt: { txHash: `0x${'1'.repeat(64)}`, logs: [] } })
    assert.match(prov.body.error.message, /^provider: /)
    const missing = await api('/deposit/status', { provider: 'sandbox-relay', receipt: { txHash: `0x${'1'.repeat(64)}`, logs: [] } })
    assert.equal(missing.body.error.message, 'receipt.txHash: not found on the source chain')
    const unknown = await api('/deposit/nope', {})
    assert.deepEqual([unknown.status, unknown.body.error.code], [404, 'not_found'])
  })

  for (const outcome of ['failed', 'expired']) {
    await check(`nextOutcome ${outcome}`, async () => {
      await reset()
      await control('/__sandbox/control', { nextOutcome: outcome })
      const q = await api('/deposit/quote', quoteBody('10'))
      const before = await balance(src, config.sources[0].token, user)
      const receipt = await pay(q.body)
      const { last, seen } = await track(receipt)
      assert.deepEqual(seen, ['pending', outcome])
      assert.deepEqual(last.txHashes, { origin: receipt.txHash })
      const after = await balance(src, config.sources[0].token, user)
      assert.equal(after, outcome === 'expired' ? before : before - 10_000_000n)
      const next = await api('/deposit/quote', quoteBody('10'))
      assert.equal(next.status, 200) // the outcome was consumed by one quote
    })
  }

  await check('deposit after expiresAt ends expired; forged logs refused', async () => {
    await reset()
    await control('/__sandbox/control', { quoteTtlSeconds: 1, processingMs: 300 })
    const q = await api('/deposit/quote', quoteBody('3'))
    await sleep(1_500)
    const receipt = await pay(q.body)
    const forged = await api('/deposit/status', { provider: 'sandbox-relay', receipt: { ...receipt, logs: receipt.logs.slice(1) } })
    assert.equal(forged.body.error.message.startsWith('receipt.logs: do not match the transaction'), true)
    const { last } = await track(receipt)
    assert.equal(last.status, 'expired')
  })

  await check('faults: 429 (with/without Retry-After), malformed, 502, slow; log records them', async () => {
    await reset()
    await control('/__sandbox/control', {
      faults: [
        { kind: '429', count: 1, retryAfter: 3 },
        { kind: '429', count: 1 },
        { kind: 'malformed', count: 1, path: '/deposit/quote' },
      ],
    })
    const a = await api('/deposit/quote', quoteBody('1'))
    assert.deepEqual([a.status, a.headers.get('retry-after'), a.headers.get('access-control-allow-origin')], [429, '3', ORIGIN])
    assert.equal(a.body.error.code, 'rate_limited')
    const b = await api('/deposit/status', {})
    assert.deepEqual([b.status, b.headers.get('retry-after')], [429, null])
    const c = await api('/deposit/quote', quoteBody('1'))
    assert.deepEqual([c.status, c.body], [200, { unexpected: true }])
    await reset()
    await control('/__sandbox/control', {
      faults: [
        { kind: '502', count: 1 },
        { kind: 'slow', delayMs: 400, count: 1 },
      ],
    })
    const d = await api('/deposit/quote', quoteBody('1'))
    assert.deepEqual([d.status, d.body.error.code], [502, 'upstream_error'])
    const t = Date.now()
    assert.equal((await api('/deposit/quote', quoteBody('1'))).status, 200)
    assert.ok(Date.now() - t >= 400)
    await api('/deposit/quote', quoteBody('1'), { origin: 'http://evil.example' })
    const log = (await control('/__sandbox/log')).body
    assert.deepEqual(
      log.map((e) => [e.method, e.path, e.status, e.fault ?? '-']),
      [
        ['POST', '/deposit/quote', 502, '502'],
        ['POST', '/deposit/quote', 200, 'slow'],
        ['POST', '/deposit/quote', 403, '-'],
      ],
    )
    assert.ok(log.every((e) => typeof e.t === 'number' && e.ip && 'origin' in e))
    const cfg = await control('/__sandbox/config')
    assert.deepEqual(cfg.body, config)
  })
} catch (error) {
  console.error('FAIL', error)
  process.exitCode = 1
}

t0 = Date.now()
await stack.stop()
const stopMs = Date.now() - t0
await Promise.all(Object.values(PORTS).map((p) => waitPortFree(p, 100)))
console.log(`ok   stop in ${stopMs} ms; ports ${Object.values(PORTS).join(', ')} free`)

t0 = Date.now()
stack = await startStack({ ...PORTS, quiet: true })
const secondStart = Date.now() - t0
await stack.stop()
await Promise.all(Object.values(PORTS).map((p) => waitPortFree(p, 100)))
console.log(`startStack: first ${firstStart} ms${process.argv.includes('--cold') ? ' (cold, solc compile)' : ''}, restart ${secondStart} ms (solc cache)`)
console.log(process.exitCode ? 'SMOKE FAILED' : `SMOKE PASSED (${results.length} checks)`)
