// @vitest-environment happy-dom
// Issue 19: zod is not in any first load. The checks of stored records come in a module of their
// own: without a record the first screen shows (and works) before they arrive; with one the flow
// says it is loading until they are here, then resumes, or drops a bad record as before. Every
// test imports fresh copies of the modules (the setup file has loaded the shared ones), and holds
// the checks' module back until it lets it go.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { memoryStorage } from '../helpers/memoryStorage'
import { scopedStorage } from '../../../src/storage/safeStorage'
import { servicesOf } from '../helpers/services'

/** localStorage as these flows keep their records (no partner: a script-mode page; this service). */
const kept = () => scopedStorage(localStorage, { apiBase: 'https://api.example.com' })!

const CARD_CHECKS = '../../../src/flows/card/storedChecks'
const ONBOARDING_CHECKS = '../../../src/flows/onboarding/storedChecks'
const IDENTITY_CHECKS = '../../../src/identity/storedChecks'

/**
 * The module at `path`, held back until `release()` (the real module, only later). `settled()`
 * waits until every fetch of it has finished: a test ends only then, or the real module would land
 * in the next test's fresh registry in place of that test's own mock.
 */
function holdBack(path: string) {
  let release!: () => void
  const gate = new Promise<void>((resolve) => (release = resolve))
  const fetches: Promise<unknown>[] = []
  vi.doMock(path, () => {
    const fetched = gate.then(() => vi.importActual(path))
    fetches.push(fetched)
    return fetched
  })
  return { release, asked: () => fetches.length, settled: () => Promise.allSettled(fetches) }
}

async function services(query: string) {
  const { readConfig } = await import('../../../src/config/config')
  const result = readConfig(`?apiBase=https://api.example.com&${query}`)
  if (!result.ok) throw new Error(result.problem)
  const config = result.config
  const post = vi.fn(async () => ({
    cryptoAmount: '0.01',
    cryptoCurrency: 'ETH',
    fiatAmount: '25',
    rate: '2500',
    providerFee: '1',
    ourFee: '0.2',
    total: '26.2',
  }))
  return {
    post,
    services: servicesOf(config, post) as never,
  }
}

const purchase = { id: 'pur_1', environment: 'sandbox', currency: 'EUR', total: '26.2', cryptoAmount: '0.01', cryptoCurrency: 'ETH', createdAt: Date.now() }
let partnerUrls: string[] = []

beforeEach(() => {
  vi.resetModules()
  localStorage.clear()
  sessionStorage.clear()
  partnerUrls = []
  vi.stubGlobal('fetch', async (url: string) => {
    partnerUrls.push(url)
    return new Response(JSON.stringify({ id: 'pur_1', status: 'processing' }), { status: 200 })
  })
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  vi.doUnmock(CARD_CHECKS)
  vi.doUnmock(ONBOARDING_CHECKS)
  vi.doUnmock(IDENTITY_CHECKS)
})

describe('the first screen without a stored record', () => {
  it('card: the form shows and quotes before the checks of stored records arrive', async () => {
    const held = holdBack(CARD_CHECKS)
    const { default: CardFlow } = await import('../../../src/flows/card/CardFlow')
    const { cardChecks } = await import('../../../src/flows/card/persisted')
    const { post, services: s } = await services('partnerBase=https://shop.example/api&flow=card&cardCrypto=ETH')
    render(<CardFlow services={s} onStep={() => {}} />)
    const amount = screen.getByLabelText('Total to pay') as HTMLInputElement
    fireEvent.input(amount, { target: { value: '25' } })
    const submit = screen.getByRole('button', { name: 'See what you get' }) as HTMLButtonElement
    expect(submit.disabled).toBe(false)
    fireEvent.click(submit)
    await waitFor(() => expect(post).toHaveBeenCalledWith('/card/quote', { fiatCurrency: 'EUR', fiatAmount: '25' }, expect.any(Function), 'user'))
    expect(cardChecks.get()).toBeUndefined()
    held.release()
    await held.settled()
  })
})

describe('a stored record waits for its check, then resumes', () => {
  it('card: a kept purchase shows "Loading…", then is followed', async () => {
    kept().setItem('stablecoin-widget:v1:flow:card', JSON.stringify(purchase))
    const held = holdBack(CARD_CHECKS)
    const { default: CardFlow } = await import('../../../src/flows/card/CardFlow')
    const { services: s } = await services('partnerBase=https://shop.example/api&flow=card&cardCrypto=ETH')
    render(<CardFlow services={s} onStep={() => {}} />)
    expect(screen.getByRole('status').textContent).toBe('Loading…')
    expect(screen.queryByLabelText('Total to pay')).toBeNull()
    await waitFor(() => expect(held.asked()).toBeGreaterThan(0))
    expect(partnerUrls).toEqual([])
    held.release()
    await waitFor(() => expect(partnerUrls).toContain('https://shop.example/api/card/status'), { timeout: 5_000 })
    expect(screen.queryByLabelText('Total to pay')).toBeNull()
    expect(kept().getItem('stablecoin-widget:v1:flow:card')).not.toBeNull()
  })

  it('onboarding: an unreadable record stays until its check has read it, then is removed and the flow starts afresh', async () => {
    const key = 'stablecoin-widget:v1:flow:onboarding'
    kept().setItem(key, JSON.stringify({ accountId: 'acc_1', virtualAccountId: 'va_1', details: { iban: 'DE89' }, feeBps: -1, savedAt: Date.now() }))
    const held = holdBack(ONBOARDING_CHECKS)
    const { default: OnboardingFlow } = await import('../../../src/flows/onboarding/OnboardingFlow')
    const { services: s } = await services('identityUrl=https://id.example.com&flow=onboarding')
    render(<OnboardingFlow services={s} onStep={() => {}} />)
    expect(screen.getByRole('status').textContent).toBe('Loading…')
    await waitFor(() => expect(held.asked()).toBeGreaterThan(0))
    expect(kept().getItem(key)).not.toBeNull()
    held.release()
    await waitFor(() => expect(kept().getItem(key)).toBeNull())
    await waitFor(() => expect(screen.queryByText('Loading…')).toBeNull())
    expect(screen.getByRole('textbox')).toBeTruthy()
  })

  it('a check that cannot be fetched: the flow says so, and the record stays for the next visit', async () => {
    kept().setItem('stablecoin-widget:v1:flow:card', JSON.stringify(purchase))
    const { default: CardFlow } = await import('../../../src/flows/card/CardFlow')
    // The fresh module's part fails its fetch (offline), as the browser's import() would. (Not
    // vi.doMock: a real copy that an earlier test fetched can stand in for a mock under load.)
    const { cardChecks } = await import('../../../src/flows/card/persisted')
    const load = vi.spyOn(cardChecks, 'load').mockRejectedValue(new TypeError('Failed to fetch dynamically imported module'))
    const { services: s } = await services('partnerBase=https://shop.example/api&flow=card&cardCrypto=ETH')
    render(<CardFlow services={s} onStep={() => {}} />)
    await waitFor(() => expect(screen.getByText(/did not load/)).toBeTruthy(), { timeout: 5_000 })
    expect(load).toHaveBeenCalled()
    expect(cardChecks.get()).toBeUndefined()
    expect(kept().getItem('stablecoin-widget:v1:flow:card')).not.toBeNull()
  })
})

describe('stores before their checks arrive', () => {
  it('load() throws StoredCheckPending and removes nothing; after ready() it reads the record', async () => {
    const held = holdBack(CARD_CHECKS)
    const { cardStore } = await import('../../../src/flows/card/persisted')
    const { StoredCheckPending } = await import('../../../src/storage/storedCheck')
    const storage = memoryStorage()
    const store = cardStore(storage)
    expect(store.load()).toBeUndefined()
    store.save(purchase)
    expect(() => store.load()).toThrow(StoredCheckPending)
    expect(storage.getItem(store.key)).not.toBeNull()
    const ready = store.ready?.()
    held.release()
    await ready
    expect(store.load()).toEqual(purchase)
  })

  it('the bank deposit reads its idempotency key only once the check is here: a retry sends the same reference', async () => {
    const held = holdBack('../../../src/flows/bankDeposit/storedChecks')
    const { attemptStore } = await import('../../../src/flows/bankDeposit/persisted')
    const storage = memoryStorage()
    const attempts = attemptStore(storage, () => 1_000)
    attempts.save({ reference: 'bd-1', accountId: 'acc_1', currency: 'EUR', amount: '100', savedAt: 1_000 })
    expect(() => attempts.load()).toThrow()
    held.release()
    await attempts.ready?.()
    expect(attempts.load()).toMatchObject({ reference: 'bd-1' })
  })

  it('the identity draft is not taken (removed) before its check is here', async () => {
    const held = holdBack(IDENTITY_CHECKS)
    const { identityDraft } = await import('../../../src/identity/draft')
    const { identityChecks } = await import('../../../src/identity/checks')
    const storage = memoryStorage()
    const draft = identityDraft(storage)
    const form = { wallet: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', nationality: 'DE', country: 'DE', phone: '', name: 'Ada', email: '' }
    draft.put({ form })
    expect(() => draft.take()).toThrow()
    expect(storage.getItem('stablecoin-widget:v1:identity-draft')).not.toBeNull()
    held.release()
    await identityChecks.load()
    expect(draft.take()).toEqual({ form })
    expect(storage.getItem('stablecoin-widget:v1:identity-draft')).toBeNull()
  })
})

describe('answers parsed with a schema fetched on first use', () => {
  it('a schema module that cannot be fetched is a network error, not an unchecked answer', async () => {
    const { readResponse } = await import('../../../src/api/client')
    const { NetworkError } = await import('../../../src/errors/ApiError')
    const res = new Response(JSON.stringify({ id: 'x' }), { status: 200 })
    await expect(readResponse('/x', res, () => Promise.reject(new TypeError('offline')))).rejects.toBeInstanceOf(NetworkError)
  })

  it('the error envelope is parsed with its schema too (fetched on the first error)', async () => {
    const { readResponse } = await import('../../../src/api/client')
    const { FieldRejected } = await import('../../../src/errors/ApiError')
    const res = new Response(JSON.stringify({ error: { code: 'invalid_amount', message: 'too small' } }), { status: 400 })
    const { depositSchemas } = await import('../../../src/api/deposit')
    await expect(readResponse('/deposit/quote', res, depositSchemas.schema('depositQuote'))).rejects.toBeInstanceOf(FieldRejected)
  })
})
