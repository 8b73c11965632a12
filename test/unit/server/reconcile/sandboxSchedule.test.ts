// @vitest-environment node
// The sandbox's scheduled status progression (the reconciler's bench, issue 37): a seeded world of
// payments of every kind whose statuses move on a schedule built from the rails' settlement labels,
// answered on the partner path with the key, on a simulated clock the caller names per request.
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
// @ts-expect-error: plain ESM module of the sandbox
import { createSandboxServer } from '../../../sandbox/server.mjs'
import { finalStatuses, statusSchemas } from '../../../../src/server/reconcile/status'
import type { PaymentKind } from '../../../../src/server/index'

const KEY = 'sk_sandbox_partner_key'
const T0 = Date.UTC(2026, 10, 2, 9)
let base = ''
let server: import('node:http').Server
beforeAll(async () => {
  server = createSandboxServer({ allowedOrigins: [], routes: {} })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

type Seeded = {
  kind: PaymentKind
  id: string
  createdAt: number
  status: string | null
  currency: string
  amount: string
  details?: unknown
  steps: Array<[number, string]>
}
const control = async (path: string, body?: unknown) => {
  const res = await fetch(base + path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: res.status, body: (await res.json()) as any }
}
const seed = (count: number, seedValue = 7) =>
  control('/__sandbox/scheduled/seed', { count, seed: seedValue, start: T0, createOverMs: 3_600_000, clock: 'header' })
const PATHS: Record<PaymentKind, string> = {
  card: '/v1/card/status',
  bankDeposit: '/v1/bank/deposit/status',
  payout: '/v1/bank/payout/status',
  cardPayout: '/v1/card/payout/status',
  deposit: '/v1/deposit/status',
}
async function ask(p: Seeded, at: number, key = KEY) {
  const body = p.kind === 'deposit' ? p.details : { id: p.id }
  const res = await fetch(base + PATHS[p.kind], {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', 'X-Sandbox-Clock': String(at) },
    body: JSON.stringify(body),
  })
  return { status: res.status, body: (await res.json()) as any }
}

describe("the sandbox's scheduled world", () => {
  it('seeds payments of every kind, the same world for the same seed, each on its way to a final status', async () => {
    const { status, body } = await seed(400)
    expect(status).toBe(200)
    const payments: Seeded[] = body.payments
    expect(payments).toHaveLength(400)
    expect(new Set(payments.map((p) => p.kind))).toEqual(new Set(['card', 'bankDeposit', 'payout', 'cardPayout', 'deposit']))
    expect(payments.every((p) => p.createdAt >= T0 && p.createdAt <= T0 + 3_600_000)).toBe(true)
    for (const p of payments) {
      expect(p.steps[0][0]).toBe(p.createdAt)
      expect(p.steps.every(([at], i) => i === 0 || at > p.steps[i - 1][0])).toBe(true)
      expect(finalStatuses[p.kind]).toContain(p.steps.at(-1)![1])
    }
    // The kit records a card purchase and a crypto deposit without a status (their creation answers none).
    expect(payments.filter((p) => p.kind === 'card' || p.kind === 'deposit').every((p) => p.status === null)).toBe(true)
    expect((await seed(400)).body.payments).toEqual(payments)
  })

  it("answers each kind on its partner path with the key, as the status stood at the time the request names, in the contract's shape", async () => {
    const payments: Seeded[] = (await seed(60)).body.payments
    for (const p of payments) {
      for (const [at, expected] of [p.steps[0], p.steps.at(-1)!, [p.steps[1][0] - 1, p.steps[0][1]] as [number, string]]) {
        const { status, body } = await ask(p, at)
        expect(status, `${p.kind} ${p.id}`).toBe(200)
        expect(body.status).toBe(expected)
        expect(statusSchemas[p.kind].safeParse(body).success, JSON.stringify(body)).toBe(true)
      }
    }
    const payout = payments.find((p) => p.kind === 'payout')!
    expect((await ask(payout, payout.createdAt)).body).toMatchObject({ id: payout.id, fiatCurrency: payout.currency, rail: expect.any(String) })
    expect((await ask(payout, payout.createdAt, 'sk_wrong')).status).toBe(401)
    expect((await ask({ ...payout, id: 'po_nobody' }, payout.createdAt)).status).toBe(404)
  })

  it("counts the key's rate on the simulated clock: 30 within one of its seconds, the next refused until that second has passed", async () => {
    const payments: Seeded[] = (await seed(5)).body.payments
    const p = payments[0]
    const at = T0 + 86_400_000
    const answers = []
    for (let i = 0; i < 31; i++) answers.push((await ask(p, at + i)).status)
    expect(answers.filter((s) => s === 200)).toHaveLength(30)
    expect(answers.at(-1)).toBe(429)
    expect((await ask(p, at + 1000)).status).toBe(200)
    // Nor does the request log keep them: a bench's hundred thousand requests would fill it.
    expect((await control('/__sandbox/log')).body.filter((e: { path: string }) => e.path.startsWith('/v1/'))).toEqual([])
  })

  it('is gone after a reset, or once cleared', async () => {
    for (const path of ['/__sandbox/reset', '/__sandbox/scheduled/clear']) {
      const payments: Seeded[] = (await seed(5)).body.payments
      expect((await control(path, {})).status).toBe(200)
      expect((await ask(payments.find((p) => p.kind !== 'deposit')!, T0)).status).toBe(404)
      expect((await control('/__sandbox/scheduled')).body).toEqual({ payments: 0, clock: null })
    }
  })
})
