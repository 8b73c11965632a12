// Issue 39, item 24: GET /v1/virtual-accounts answers 501 not_implemented today (partner-api.md). The
// partner's server reads it through the kit (createPartnerReads), which says so in a code of its
// own, never a generic failure; once the service lists, the page is read with the contract's shape.
import { describe, expect, it } from 'vitest'
import { StatusFetchError, VirtualAccountsNotListed, createPartnerReads } from '../../../src/server/index'

function service(answer: (url: URL) => Response) {
  const seen: Array<{ url: URL; key: string | null; method: string }> = []
  const fetch = (async (url: string | URL | Request, init?: RequestInit) => {
    const u = new URL(String(url))
    seen.push({ url: u, key: new Headers(init?.headers).get('Authorization'), method: init?.method ?? 'GET' })
    return answer(u)
  }) as typeof globalThis.fetch
  return { fetch, seen }
}

const ACCOUNT = {
  id: 'va_1',
  wallet: '0x00000000000000000000000000000000000000aa',
  chain: 'arbitrum',
  asset: 'USDC',
  rail: 'sepa',
  currency: 'EUR',
  reference: 'order-1',
  details: { iban: 'DE89370400440532013000', bankName: 'Sandbox Bank', swiftCode: 'SBXXDEFF', accountName: 'Ada Lovelace' },
  feeBps: 100,
  active: true,
  createdAt: '2026-11-27T12:00:00Z',
}

describe('createPartnerReads().virtualAccounts', () => {
  it("the service's 501 not_implemented is said in the kit's own words: not listed yet, keep the details returned at creation", async () => {
    const upstream = service(() => Response.json({ error: { code: 'not_implemented', message: 'Not implemented.' } }, { status: 501 }))
    const reads = createPartnerReads({ apiBase: 'https://api.example', apiKey: 'sk_list', fetch: upstream.fetch })
    const error = await reads.virtualAccounts().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(VirtualAccountsNotListed)
    expect(error).toBeInstanceOf(StatusFetchError)
    expect(error).toMatchObject({ code: 'virtual_accounts_not_listed', httpStatus: 501 })
    expect((error as Error).message).toMatch(/does not list virtual accounts yet \(501 not_implemented\).*keep the details returned at creation/)
    expect(upstream.seen.map((s) => `${s.method} ${s.url.pathname} ${s.key}`)).toEqual(['GET /v1/virtual-accounts Bearer sk_list'])
  })

  it('sends the filter and page as the query, and reads the page with the contract shape', async () => {
    const upstream = service(() => Response.json({ accounts: [ACCOUNT], hasMore: false }))
    const reads = createPartnerReads({ apiBase: 'https://api.example', apiKey: 'sk_list', fetch: upstream.fetch })
    expect(await reads.virtualAccounts({ currency: 'EUR', active: true, limit: 50, startingAfter: 'va_0' })).toEqual({ accounts: [ACCOUNT], hasMore: false })
    expect(Object.fromEntries(upstream.seen[0].url.searchParams)).toEqual({ currency: 'EUR', active: 'true', limit: '50', startingAfter: 'va_0' })
  })

  it('another failure, or an answer outside the contract, is a StatusFetchError naming the status', async () => {
    const denied = service(() => Response.json({ error: { code: 'permission_denied', message: 'no' } }, { status: 403 }))
    const refused = await createPartnerReads({ apiBase: 'https://api.example', apiKey: 'k', fetch: denied.fetch })
      .virtualAccounts()
      .catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(StatusFetchError)
    expect(refused).not.toBeInstanceOf(VirtualAccountsNotListed)
    expect(refused).toMatchObject({ httpStatus: 403 })
    const odd = service(() => Response.json({ accounts: [{ ...ACCOUNT, feeBps: '100' }], hasMore: false }))
    await expect(createPartnerReads({ apiBase: 'https://api.example', apiKey: 'k', fetch: odd.fetch }).virtualAccounts()).rejects.toThrow(
      /does not match the contract/,
    )
  })
})
