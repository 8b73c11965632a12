// Who may spend the partner key: the kit's handler is not built without `authenticate`, and
// `authenticate` can read the request's body without breaking the request.
import { describe, expect, it, vi } from 'vitest'
import { createPartnerHandler, openPaymentStore } from '../../../src/server/index'

const KEY = 'sk_live_review_0123456789'
const SHOP = 'https://shop.example'

function upstream() {
  const calls: Array<{ url: string; init: RequestInit }> = []
  const fetch = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {} })
    return new Response(JSON.stringify({ id: 'po_1', status: 'pending' }), { status: 200, headers: { 'Content-Type': 'application/json' } })
  }) as unknown as typeof globalThis.fetch
  return { fetch, calls }
}

const payout = { quoteId: 'q_1', accountId: 'acc_of_some_buyer', beneficiary: { name: 'Mallory', schema: 'bank_sepa', iban: 'DE89370400440532013000' } }

describe('createPartnerHandler: who may spend the partner key', () => {
  it('without `authenticate`, the handler is not built at all: no caller (curl, no Origin) can spend the partner key by default', async () => {
    const up = upstream()
    expect(() => createPartnerHandler({ apiBase: 'https://api.example.com', apiKey: KEY, allowedOrigins: [SHOP], fetch: up.fetch })).toThrow(
      /authenticate is required/,
    )
    expect(up.calls).toHaveLength(0)
  })

  it('`authenticate` can read the body to check the account is its user’s (per-resource authorisation) without breaking the request', async () => {
    const up = upstream()
    const owner = new Map([['tok_alice', 'acc_alice']])
    const store = await openPaymentStore()
    const handle = createPartnerHandler({
      apiBase: 'https://api.example.com',
      apiKey: KEY,
      allowedOrigins: [SHOP],
      fetch: up.fetch,
      // The natural way to bind the token to the account it acts on (issue 29: answering the user's id).
      authenticate: async (token, request) => {
        const body = (await request.json()) as { accountId?: string }
        return owner.get(token) === body.accountId ? 'alice' : undefined
      },
      store,
      log: () => {},
    })
    const res = await handle(
      new Request('https://shop.example/bank/payout', {
        method: 'POST',
        headers: { Origin: SHOP, 'Content-Type': 'application/json', Authorization: 'Bearer tok_alice' },
        body: JSON.stringify({ ...payout, accountId: 'acc_alice' }),
      }),
    )
    // Today: 500 "Unexpected error" — the handler reads the already-consumed body. Partners either
    // learn about request.clone() by accident or skip the ownership check (IDOR on accountId / ids).
    expect(res.status).toBe(200)
    await store.close()
  }, 30_000)
})
// The limit on a chunked body is held by test/unit/server/handler.test.ts.
