// @vitest-environment node
import { describe, expect, it } from 'vitest'
import { createStatusFetcher, StatusFetchError } from '../../../../src/server/index'

const KEY = 'sk_live_secret_key'

function recordingFetch(status: number, body: string, headers: Record<string, string> = {}) {
  const calls: Array<{ url: string; init: RequestInit }> = []
  const fetch = (async (url: string, init: RequestInit) => {
    calls.push({ url, init })
    return new Response(body, { status, headers })
  }) as unknown as typeof globalThis.fetch
  return { calls, fetch }
}

describe('createStatusFetcher', () => {
  it("asks each kind's partner-path status endpoint with the key, and a crypto deposit by provider and receipt", async () => {
    const { calls, fetch } = recordingFetch(200, '{"status":"pending"}')
    const fetchStatus = createStatusFetcher({ apiBase: 'https://api.example.com/', apiKey: KEY, fetch })
    await fetchStatus('payout', 'po_1', null)
    await fetchStatus('cardPayout', 'cp_1', null)
    await fetchStatus('bankDeposit', 'bd_1', null)
    await fetchStatus('card', 'cd_1', null)
    const receipt = { txHash: `0x${'1'.repeat(64)}`, logs: [{ address: `0x${'2'.repeat(40)}`, topics: [`0x${'3'.repeat(64)}`] }] }
    expect(await fetchStatus('deposit', 'relay:0x…', { provider: 'relay', receipt })).toEqual({ status: 'pending' })
    expect(calls.map((c) => [c.url, JSON.parse(String(c.init.body))])).toEqual([
      ['https://api.example.com/v1/bank/payout/status', { id: 'po_1' }],
      ['https://api.example.com/v1/card/payout/status', { id: 'cp_1' }],
      ['https://api.example.com/v1/bank/deposit/status', { id: 'bd_1' }],
      ['https://api.example.com/v1/card/status', { id: 'cd_1' }],
      ['https://api.example.com/v1/deposit/status', { provider: 'relay', receipt }],
    ])
    expect(calls.every((c) => (c.init.headers as Record<string, string>).Authorization === `Bearer ${KEY}` && c.init.redirect === 'error')).toBe(true)
  })

  it("passes on a 429's Retry-After, and never puts the key in an error", async () => {
    const { fetch } = recordingFetch(429, `{"error":{"code":"rate_limited","message":"key ${KEY} over its rate"}}`, { 'Retry-After': '3' })
    const error = await createStatusFetcher({ apiBase: 'https://api.example.com', apiKey: KEY, fetch })('payout', 'po_1', null).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(StatusFetchError)
    expect(error).toMatchObject({ httpStatus: 429, retryAfterMs: 3000 })
    expect(String((error as Error).message)).not.toContain(KEY)
  })

  it("reads GET /v1/limits with the key, for the rails' settlement times", async () => {
    const { calls, fetch } = recordingFetch(200, '{"limits":[]}')
    expect(await createStatusFetcher({ apiBase: 'https://api.example.com', apiKey: KEY, fetch }).limits()).toEqual({ limits: [] })
    expect(calls.map((c) => [c.url, c.init.method, c.init.body, (c.init.headers as Record<string, string>).Authorization, c.init.redirect])).toEqual([
      ['https://api.example.com/v1/limits', 'GET', undefined, `Bearer ${KEY}`, 'error'],
    ])
  })
})
