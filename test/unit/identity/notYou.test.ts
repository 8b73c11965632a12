// Attack: "Not you?" on a shared device forgets the account and the virtual-account record only.
// The previous buyer's unfunded payout (flow:payout, with its deposit address), their one-off
// deposit (flow:bankDeposit, bank details whose reference pays into THEIR wallet) and their
// pending idempotency keys stay in localStorage (onboarding/effects.ts:39 clears the onboarding
// store, identity/effects.ts:29 the account; nothing else). The next person who said "Not you?"
// and verifies as themselves then opens the payout or the one-off deposit and is shown the previous
// buyer's payout to fund, or the previous buyer's bank details to pay (PayoutFlow.tsx:52,
// BankDepositFlow.tsx:58/63 resume those records before anything else). The payout and one-off
// deposit flows themselves offer no "Not you?" at all for the account they reuse silently.
// As a page runs once its first screen is up: the stored-record checks and the answers' schemas are here.
import '../setup/afterFirstScreen'
import { describe, expect, it } from 'vitest'
import type { ApiClient } from '../../../src/api/client'
import { readConfig } from '../../../src/config/config'
import { createOnboardingEffects } from '../../../src/flows/onboarding/effects'
import { initialState, transition } from '../../../src/flows/onboarding/machine'
import { onboardingStore } from '../../../src/flows/onboarding/persisted'
import { buyerAccount } from '../../../src/identity/account'
import { emptyApplicant, initialIdentity } from '../../../src/identity/machine'
import { createFakeClock } from '../helpers/fakeClock'
import { memoryStorage } from '../helpers/memoryStorage'

const DAY = 86_400_000
const NOW = 1_000 * DAY
const WALLET_A = '0x1111111111111111111111111111111111111111'

describe('attack: "Not you?" leaves the previous buyer\'s money records behind', () => {
  it('after "Not you?", no record of the previous buyer that a bank flow would resume is left', async () => {
    const storage = memoryStorage()
    const clock = createFakeClock(NOW)
    const accounts = buyerAccount(storage, clock.now)
    accounts.save({ accountId: 'acc_A', walletId: 'w_A', wallet: WALLET_A })
    // A's unfunded payout and A's one-off deposit, as those flows store them.
    storage.setItem(
      'stablecoin-widget:v1:flow:payout',
      JSON.stringify({ id: 'bp_A', depositAddress: '0x2222222222222222222222222222222222222222', depositAmount: '480', chain: 8453 }),
    )
    storage.setItem('stablecoin-widget:v1:flow:payout-reference', JSON.stringify({ reference: 'po_A', ask: '[]' }))
    storage.setItem('stablecoin-widget:v1:flow:bankDeposit', JSON.stringify({ deposit: { id: 'bd_A', details: { reference: 'REF-A' } } }))
    storage.setItem('stablecoin-widget:v1:flow:bankDeposit-attempt', JSON.stringify({ reference: 'bd-A', accountId: 'acc_A' }))

    const result = readConfig('?apiBase=https://api.example.com&identityUrl=https://id.example.com&flow=onboarding&locale=en')
    if (!result.ok) throw new Error(result.problem)
    const runner = createOnboardingEffects(
      {
        config: result.config,
        api: {} as ApiClient,
        store: onboardingStore(storage, clock.now),
        identity: { api: {} as ApiClient, accounts, usedCodes: { add: () => {} } },
        clock,
        emit: () => {},
      },
      () => {},
    )
    // B opens the virtual-account flow: A's account resumes; B presses "Not you? Start over".
    const resumed = initialState(initialIdentity(emptyApplicant), undefined, accounts.load())
    expect(resumed.tag).toBe('opening')
    const forgotten = transition(resumed, { type: 'RESTART' })
    runner.run(forgotten)
    await clock.settle()

    expect(storage.getItem('stablecoin-widget:v1:flow:account')).toBeNull()
    const left = [...storage.data.keys()].filter((k) => /flow:(payout|bankDeposit)/.test(k))
    expect(left).toEqual([])
  })
})
