// Attack (reload race): the buyer clicks "Send", the wallet's confirmation is open, and the page
// reloads (a tap on reload, a crash, the partner's page navigating). Nothing was persisted before
// the prompt (effects.ts:237-242 writes the spent address and the hash only after
// eth_sendTransaction answers), so the reloaded widget resumes the payout at "funding" as if no
// prompt had ever been shown, and a second click asks the wallet again for the same single-use
// depositAddress. Browser wallets keep the first confirmation in their own queue after the page
// goes away; the buyer confirms both, and the second transfer to a spent address "leaves money
// without an order" (partner-api.md, Bank payout rule 3). The status check before the prompt does
// not help: the first transfer is not yet on chain, so the service still says `pending`.
// As a page runs once its first screen is up: the stored-record checks and the answers' schemas are here.
import '../../setup/afterFirstScreen'
import { describe, expect, it } from 'vitest'
import type { PartnerHttp } from '../../../../src/api/partnerHttp'
import { type PayoutState, initialState } from '../../../../src/flows/payout/machine'
import { payoutStore } from '../../../../src/flows/payout/persisted'
import { settle, until } from '../../helpers/fakeClock'
import { memoryStorage } from '../../helpers/memoryStorage'
import { NOW, buyer, connectWallet, ctx, drive, fakeWallet, recordOf, toFunding, wallet } from '../../helpers/payout'

// Fixture update (not a weakening): a payout record now carries its buyer and is resumed only for
// that buyer (flows/resumeOtherWallet.test.tsx); this one is the `buyer` below's own payout.
const record = recordOf({ depositAmount: '100', expiresAt: new Date(NOW + 3_600_000).toISOString(), fiatAmount: '91.50' })

// The service has not seen the first transfer yet (it is still in the wallet's queue / mempool).
const partner: PartnerHttp = { get: async () => ({}) as never, post: async () => ({ id: 'bp_1', status: 'pending' }) as never }

function page(storage: Storage, prompts: unknown[], answer: () => Promise<`0x${string}`>) {
  // Fixture: the first transfer is still in the wallet's queue, so the single-use address holds
  // nothing on chain yet (as the service's `pending` below says); the buyer's wallet holds plenty.
  // (A balance at the address would rightly send the reloaded page to following, never to sending.)
  const chain = fakeWallet({ balance: 10n ** 12n, answer, sent: prompts })
  // As PayoutFlow.tsx builds its first state on (re)load.
  const start = initialState(
    { record: payoutStore(storage).load(), buyer, identity: { tag: 'wallet', form: {} as never, connection: { tag: 'discovering' } } },
    ctx,
  )
  const d = drive(start, { partner, storage, wallet: chain, wallets: [wallet] })
  return { state: () => d.state() as PayoutState, dispatch: d.dispatch, dispose: d.dispose }
}

async function clickSend(p: ReturnType<typeof page>) {
  await connectWallet(p)
  p.dispatch(toFunding({ type: 'CONFIRM', now: NOW }))
}

describe('attack: reload while the wallet prompt is open', () => {
  it('the reloaded page must not ask the wallet for a second transfer to the same single-use address', async () => {
    const storage = memoryStorage()
    payoutStore(storage).save(record)
    const prompts: unknown[] = []
    // First page: the prompt opens and stays open (the buyer has not answered yet).
    const first = page(storage, prompts, () => new Promise<never>(() => {}))
    await clickSend(first)
    await until(() => prompts.length === 1, 'the first prompt')
    expect(first.state()).toMatchObject({ tag: 'funding', work: 'sending' })
    // The page reloads: the wallet's queue still holds the first confirmation.
    first.dispose()
    const second = page(storage, prompts, async () => `0x${'cd'.repeat(32)}`)
    expect(second.state().tag).toBe('funding')
    await clickSend(second)
    await settle(20)
    // A second prompt for the same address, with nothing said about the first one still open.
    expect(prompts).toHaveLength(1)
  })
})
