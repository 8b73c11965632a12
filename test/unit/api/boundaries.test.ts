// Issue 15, items 3, 8 and 21: what the service sends is checked before it reaches a screen or a
// link, and a mistyped field is named as such.
import { describe, expect, it } from 'vitest'
import { createApiClient } from '../../../src/api/client'
import { depositStatus, depositStatusRequest, fiatAccount } from '../../../src/api/schemas'
import { ResponseShapeError } from '../../../src/errors/ApiError'
import { createRateLimiter } from '../../../src/rateLimit/rateLimiter'
import { createFakeClock } from '../helpers/fakeClock'

const H = `0x${'ab'.repeat(32)}`

describe('applicationFeeBps', () => {
  for (const bad of [-1, 1e21, 1e-7, 0.5, 10_001, Number.NaN]) {
    it(`refuses ${bad}`, () => {
      expect(fiatAccount.safeParse({ id: 'va_1', details: {}, applicationFeeBps: bad }).success).toBe(false)
    })
  }
  for (const good of [0, 1, 100, 10_000]) {
    it(`accepts ${good}`, () => {
      expect(fiatAccount.safeParse({ id: 'va_1', details: {}, applicationFeeBps: good }).success).toBe(true)
    })
  }
})

describe('transaction hashes of the deposit status', () => {
  for (const field of ['origin', 'delivered']) {
    for (const bad of ['javascript:alert(1)', '../../admin', '0xab', `${H}/../x`, `${H}?q=1`]) {
      it(`txHashes.${field} = ${JSON.stringify(bad)} is refused`, () => {
        expect(depositStatus.safeParse({ status: 'done', txHashes: { [field]: bad } }).success).toBe(false)
      })
    }
  }
  it('real hashes pass', () => {
    expect(depositStatus.safeParse({ status: 'done', txHashes: { origin: H, delivered: H } }).success).toBe(true)
  })
})

describe('a type error is named as one', () => {
  it('an answer with a string where a number belongs says so, not "required" or "Invalid input"', async () => {
    const clock = createFakeClock()
    const fetch = (async () =>
      new Response(JSON.stringify({ id: 'va_1', details: {}, applicationFeeBps: '100' }), { status: 200 })) as unknown as typeof globalThis.fetch
    const client = createApiClient({ apiBase: 'https://api.example', limiter: createRateLimiter({ clock }), fetch })
    const error = await client.post('/fiat/account', {}, fiatAccount).catch((e) => e)
    expect(error).toBeInstanceOf(ResponseShapeError)
    expect((error as ResponseShapeError).details).toBe('applicationFeeBps: expected a number, got a string')
  })

  it('a missing field is "required"', async () => {
    const clock = createFakeClock()
    const fetch = (async () => new Response(JSON.stringify({ id: 'va_1', details: {} }), { status: 200 })) as unknown as typeof globalThis.fetch
    const client = createApiClient({ apiBase: 'https://api.example', limiter: createRateLimiter({ clock }), fetch })
    const error = await client.post('/fiat/account', {}, fiatAccount).catch((e) => e)
    expect((error as ResponseShapeError).details).toBe('applicationFeeBps: required')
  })

  it('the request schema too: a topic that is a number', () => {
    const parsed = depositStatusRequest.safeParse({ provider: 'r', receipt: { txHash: H, logs: [{ address: `0x${'1'.repeat(40)}`, topics: [5] }] } })
    expect(parsed.success).toBe(false)
  })
})
