import { describe, expect, it } from 'vitest'
import { depositQuote, depositStatus, errorEnvelope } from '../../../src/api/schemas'

const A = (n: string) => `0x${n.repeat(40)}`
const goodQuote = {
  provider: 'relay',
  amountIn: '25.50',
  amountOut: '25.31',
  fee: '0.19',
  expiresAt: '2026-11-22T12:00:00Z',
  approval: { token: A('a'), spender: A('b'), amount: '25500000' },
  transaction: { chainId: 8453, to: A('c'), data: '0xdeadbeef', value: '0' },
}

function firstIssuePath(result: { success: boolean; error?: { issues: Array<{ path: PropertyKey[] }> } }) {
  return result.error?.issues[0]?.path.join('.')
}

describe('depositQuote schema', () => {
  it('accepts the assumed contract and keeps amounts as strings', () => {
    const parsed = depositQuote.safeParse(goodQuote)
    expect(parsed.success).toBe(true)
    expect(parsed.data).toEqual(goodQuote)
  })

  it('accepts a quote without approval', () => {
    const { approval: _, ...rest } = goodQuote
    const parsed = depositQuote.safeParse(rest)
    expect(parsed.success).toBe(true)
    expect(parsed.data?.approval).toBeUndefined()
  })

  it('drops unknown extra fields and still accepts', () => {
    const parsed = depositQuote.safeParse({
      ...goodQuote,
      route: { hops: 2 },
      transaction: { ...goodQuote.transaction, gas: '21000' },
    })
    expect(parsed.success).toBe(true)
    expect(parsed.data).not.toHaveProperty('route')
    expect(parsed.data?.transaction).not.toHaveProperty('gas')
    expect(parsed.data).toEqual(goodQuote)
  })

  it('refuses a missing provider', () => {
    const { provider: _, ...rest } = goodQuote
    const parsed = depositQuote.safeParse(rest)
    expect(parsed.success).toBe(false)
    expect(firstIssuePath(parsed)).toBe('provider')
  })

  it('refuses an empty provider', () => {
    expect(depositQuote.safeParse({ ...goodQuote, provider: '' }).success).toBe(false)
  })

  it('refuses an amount sent as a JSON number', () => {
    const parsed = depositQuote.safeParse({ ...goodQuote, amountOut: 25.31 })
    expect(parsed.success).toBe(false)
    expect(firstIssuePath(parsed)).toBe('amountOut')
  })

  it.each(['1e3', '-1', '25.', '', '25,31'])('refuses the amount %j', (amountIn) => {
    expect(depositQuote.safeParse({ ...goodQuote, amountIn }).success).toBe(false)
  })

  it.each(['0x1234', `${A('c')}00`, A('g'), 'c'.repeat(42)])('refuses the address %j', (to) => {
    const parsed = depositQuote.safeParse({ ...goodQuote, transaction: { ...goodQuote.transaction, to } })
    expect(parsed.success).toBe(false)
    expect(firstIssuePath(parsed)).toBe('transaction.to')
  })

  it('refuses a bad date, non-hex data and a non-integer value', () => {
    expect(depositQuote.safeParse({ ...goodQuote, expiresAt: 'tomorrow' }).success).toBe(false)
    expect(depositQuote.safeParse({ ...goodQuote, transaction: { ...goodQuote.transaction, data: 'xyz' } }).success).toBe(false)
    expect(depositQuote.safeParse({ ...goodQuote, transaction: { ...goodQuote.transaction, value: '0.5' } }).success).toBe(false)
    expect(depositQuote.safeParse({ ...goodQuote, transaction: { ...goodQuote.transaction, chainId: '8453' } }).success).toBe(false)
  })
})

describe('depositStatus schema', () => {
  it.each(['pending', 'done', 'failed', 'expired'])('accepts status %s without txHashes', (status) => {
    expect(depositStatus.safeParse({ status })).toEqual({ success: true, data: { status } })
  })

  it('accepts txHashes with origin and delivered', () => {
    const data = { status: 'done', txHashes: { origin: `0x${'1'.repeat(64)}`, delivered: `0x${'2'.repeat(64)}` } }
    expect(depositStatus.safeParse({ ...data, extra: true })).toEqual({ success: true, data })
  })

  it.each(['completed', 'DONE', '', 'refunded'])('refuses the unknown status %j', (status) => {
    expect(depositStatus.safeParse({ status }).success).toBe(false)
  })

  it('refuses a missing status', () => {
    expect(depositStatus.safeParse({ txHashes: {} }).success).toBe(false)
  })
})

describe('errorEnvelope schema', () => {
  it('reads code and message', () => {
    const body = { error: { code: 'no_route', message: 'no provider' } }
    expect(errorEnvelope.safeParse(body)).toEqual({ success: true, data: body })
  })

  it.each([
    { code: 'x' },
    { error: { code: 'x' } },
    { error: { message: 'x' } },
    { error: { code: 400, message: 'x' } },
    { error: 'bad' },
    'Internal Server Error',
    null,
  ])('refuses %j', (body) => {
    expect(errorEnvelope.safeParse(body).success).toBe(false)
  })
})
