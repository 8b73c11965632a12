// @vitest-environment happy-dom
// Attack: a payout or a one-off deposit left on a shared device is resumed for the next person,
// even when the link they open is signed by the partner for ANOTHER wallet.
//
// The identity module refuses the stored account when `walletAddress` (signed) names another
// wallet (identity/start.ts:71, BankDepositFlow.tsx:140). But the flows' own records are resumed
// before that check and without it: PayoutFlow.tsx:52 (`record: store.load()` wins over the
// buyer in initialPayoutState) and BankDepositFlow.tsx:58/63 (`kept ? resumeState(...)`). Neither
// record says whose it is.
//
// Concrete path: A (the attacker) uses a shared computer (family PC, kiosk, library), creates a
// payout to A's own bank account, or a one-off deposit into A's wallet, and walks away at the
// funding / details screen. B then opens the partner's link signed for B's wallet. B is shown A's
// payout ("Send the stablecoins", A's deposit address) or A's bank details and payment reference:
// B's stablecoins pay A's beneficiary, or B's bank transfer is converted into A's wallet.
import { cleanup, render, screen, waitFor } from '@testing-library/preact'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { readConfig } from '../../../src/config/config'
import type { Services } from '../../../src/services'
import { scopedStorage } from '../../../src/storage/safeStorage'
import { leftPayout } from '../helpers/leftPayout'
import { servicesOf } from '../helpers/services'

const WALLET_A = '0x1111111111111111111111111111111111111111'
const WALLET_B = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const DEPOSIT_A = '0x2222222222222222222222222222222222222222'
const NOW = Date.now()

function services(query: string): Services {
  const result = readConfig(`?apiBase=https://api.example.com&partnerBase=https://shop.example/api&identityUrl=https://id.example.com&locale=en&${query}`)
  if (!result.ok) throw new Error(result.problem)
  const config = result.config
  return servicesOf(
    config,
    vi.fn(async () => ({})),
  )
}

beforeEach(() => {
  localStorage.clear()
  sessionStorage.clear()
  // The partner backend: a pending status for whatever is asked, reference data for the amount step.
  vi.stubGlobal('fetch', async (url: string) => {
    const path = new URL(url).pathname
    const body = path.endsWith('/payment-methods')
      ? { countries: { DE: { currency: 'EUR', bank_deposit: true } } }
      : path.endsWith('/limits')
        ? { limits: [] }
        : path.endsWith('/bank/deposit/status')
          ? { id: 'bd_A', status: 'awaiting_funds' }
          : { id: 'bp_A', status: 'pending' }
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } })
  })
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

/** What A leaves behind: A's account (A's wallet) and A's unfunded payout. */
/** localStorage as these flows keep their records (no partner: a script-mode page; this service). */
const kept = () => scopedStorage(localStorage, { apiBase: 'https://api.example.com' })!

function leavePayoutOfA() {
  kept().setItem('stablecoin-widget:v1:flow:account', JSON.stringify({ accountId: 'acc_A', walletId: 'w_A', wallet: WALLET_A, savedAt: NOW }))
  kept().setItem('stablecoin-widget:v1:flow:payout', JSON.stringify(leftPayout(DEPOSIT_A, NOW)))
}

/** What A leaves behind: A's account and A's one-off deposit (details paying into A's wallet). */
function leaveDepositOfA() {
  kept().setItem('stablecoin-widget:v1:flow:account', JSON.stringify({ accountId: 'acc_A', walletId: 'w_A', wallet: WALLET_A, savedAt: NOW }))
  kept().setItem(
    'stablecoin-widget:v1:flow:bankDeposit',
    JSON.stringify({
      deposit: {
        id: 'bd_A',
        rail: 'sepa',
        expiresAt: new Date(NOW + 86_400_000).toISOString(),
        details: { iban: 'DE89370400440532013000', bic: 'COBADEFFXXX', reference: 'REF-OF-A-7731' },
        currency: 'EUR',
        amount: '500',
        country: 'DE',
        createdAt: NOW,
      },
      status: { id: 'bd_A', status: 'awaiting_funds' },
    }),
  )
}

describe("attack: another buyer's payout or deposit resumed under a link signed for B's wallet", () => {
  it("payout: B's link (walletAddress=B) must not open A's payout at the funding step", async () => {
    leavePayoutOfA()
    const { default: PayoutFlow } = await import('../../../src/flows/payout/PayoutFlow')
    render(<PayoutFlow services={services(`flow=payout&walletAddress=${WALLET_B}`)} onStep={() => {}} />)
    await new Promise((r) => setTimeout(r, 50))
    // The stored account is (rightly) refused for B; A's payout must be refused the same way.
    expect(screen.queryByText(DEPOSIT_A)).toBeNull()
    expect(screen.queryByRole('heading', { name: 'Send the stablecoins' })).toBeNull()
  })

  it("one-off deposit: B's link (walletAddress=B) must not show A's bank details and reference", async () => {
    leaveDepositOfA()
    const { default: BankDepositFlow } = await import('../../../src/flows/bankDeposit/BankDepositFlow')
    render(<BankDepositFlow services={services(`flow=bankDeposit&walletAddress=${WALLET_B}`)} onStep={() => {}} />)
    // Give the lazily loaded screens time to arrive.
    await waitFor(() => expect(document.body.textContent).not.toMatch(/^\s*Loading/), { timeout: 2000 }).catch(() => {})
    await new Promise((r) => setTimeout(r, 300))
    expect(document.body.textContent).not.toContain('REF-OF-A-7731')
    expect(document.body.textContent?.replace(/\s/g, '')).not.toContain('DE89370400440532013000')
  })
})
