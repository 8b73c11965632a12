#!/usr/bin/env node
// What the simulated preview (issue 14) adds before the Confirm button: the reads and the
// eth_simulateV1 call the deposit flow makes once a quote has passed the guard, timed against
// the sandbox's own chain. Runs its own stack on spare ports; prints the median of 10.
import { performance } from 'node:perf_hooks'
import { createServer } from 'vite'
import { startStack } from '../test/sandbox/stack.mjs'

const RUNS = 10
const ORIGIN = 'http://127.0.0.1:4173'
// Ports apart from npm start (8545…) and e2e (19545… plus E2E_PORTS_OFFSET); BENCH_PORT moves them.
const base = Number(process.env.BENCH_PORT ?? 41545)
const stack = await startStack({ sourcePort: base, destPort: base + 1, apiPort: base + 242, quiet: true })
const vite = await createServer({ server: { middlewareMode: true }, appType: 'custom', logLevel: 'silent' })
try {
  const w = await vite.ssrLoadModule('/src/wallet/chainActions.ts')
  const { config } = stack
  const chain = config.chains.find((c) => c.id === 8453)
  const source = config.sources[0]
  const account = config.accounts[1]
  const reader = w.readClient(chain)

  async function quote(amount) {
    const res = await fetch(`${config.apiBase}/deposit/quote`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: ORIGIN },
      body: JSON.stringify({ source: { chainId: 8453, token: source.token, address: account }, amount, method: 'crypto' }),
    })
    if (!res.ok) throw new Error(`quote: ${res.status} ${await res.text()}`)
    return res.json()
  }

  // The flow's preview, step for step: balance, allowance, then the simulated approval + deposit.
  async function preview(q) {
    await w.tokenBalance(reader, source.token, account)
    const needed = BigInt(q.approval.amount)
    const current = await w.allowance(reader, q.approval.token, account, q.approval.spender)
    const deposit = { to: q.transaction.to, data: q.transaction.data, value: BigInt(q.transaction.value) }
    const calls = current >= needed ? [deposit] : [{ to: q.approval.token, data: w.approveData(q.approval.spender, needed), value: 0n }, deposit]
    return w.simulate(reader, account, calls)
  }

  const times = []
  const simulateOnly = []
  let last
  for (let i = 0; i < RUNS + 1; i++) {
    // The sandbox allows 5 quotes per 10 s per IP: reset its limiter between rounds.
    await fetch(`${config.apiBase}/__sandbox/reset`, { method: 'POST' })
    const q = await quote('25')
    const t0 = performance.now()
    last = await preview(q)
    const t1 = performance.now()
    const calls = [
      { to: q.approval.token, data: w.approveData(q.approval.spender, BigInt(q.approval.amount)), value: 0n },
      { to: q.transaction.to, data: q.transaction.data, value: 0n },
    ]
    const t2 = performance.now()
    await w.simulate(reader, account, calls)
    const t3 = performance.now()
    if (i === 0) continue // warm-up: module and connection set-up
    times.push(t1 - t0)
    simulateOnly.push(t3 - t2)
  }
  const median = (xs) => {
    const s = [...xs].sort((a, b) => a - b)
    return (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2
  }
  const fmt = (xs) => xs.map((x) => x.toFixed(1)).join(', ')
  console.log(`simulation result: ${last.kind}; changes ${JSON.stringify(last.changes?.map((c) => [c.token, String(c.diff)]))}; gas ${last.gasUsed}`)
  console.log(`preview before Confirm (balance + allowance + eth_simulateV1 + gas price), ${RUNS} runs: ${fmt(times)} ms`)
  console.log(`  median ${median(times).toFixed(1)} ms`)
  console.log(`eth_simulateV1 + gas price alone: median ${median(simulateOnly).toFixed(1)} ms`)
} finally {
  await vite.close()
  await stack.stop()
}
