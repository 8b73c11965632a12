// Issue 40 item 1 at the payout's funding step: a WalletConnect session can be disconnected (the
// connect-wallet sub-machine's DISCONNECT, as the deposit's), and a session the phone ended gets
// true words and a way on (Connect again: the same event). Back to choosing a wallet with the
// payout and what the buyer typed kept and nothing sent; never while the wallet is being asked,
// nor once it was asked and may still hold the transfer.
import { describe, expect, it } from 'vitest'
import { fundingOf } from '../../../../src/flows/payout/funding'
import type { PayoutState } from '../../../../src/flows/payout/machine'
import type { ChosenWallet } from '../../../../src/kernel/connectWallet'
import { until } from '../../helpers/fakeClock'
import { BUYER, NOW, OTHER, buyer, choose, connectState, ctxOf, drive, fakePartner, fakeWallet, recordOf, run, runWith, toFunding } from '../../helpers/payout'

/** WalletConnect as it announces itself in the page's list (wallet/walletConnectWallet.tsx). */
const phone: ChosenWallet = { kind: 'injected', id: 'walletconnect', name: 'WalletConnect', rdns: 'com.walletconnect' }

/** The funding step of a payout, the phone's session connected as the buyer's wallet. */
const connected = (extra: Partial<Extract<PayoutState, { tag: 'funding' }>> = {}): PayoutState => ({
  ...fundingOf(buyer, recordOf(), { wallet: phone, sender: BUYER }),
  connection: { tag: 'wallets', wallets: [phone] },
  ...extra,
})
const disconnect = toFunding({ type: 'WALLET', event: { type: 'DISCONNECT' } })

describe('the funding step’s Disconnect (a WalletConnect session)', () => {
  it('goes back to choosing a wallet, letting go of the session, the payout kept', () => {
    const s = run(connected(), disconnect)
    expect(s).toMatchObject({ tag: 'funding', record: recordOf(), connection: { tag: 'discovering', release: phone } })
    expect(s).not.toHaveProperty('sender', BUYER)
    expect((s as { wallet?: unknown }).wallet).toBeUndefined()
  })

  it('the card payout’s funding step the same (its record names the card, no rail)', () => {
    const card = connected({ record: recordOf({ rail: undefined, settlement: undefined, card: { brand: 'visa', last4: '4242' } }) })
    const s = runWith(ctxOf('card'))(card, disconnect)
    expect(s).toMatchObject({ tag: 'funding', record: { card: { last4: '4242' } }, connection: { tag: 'discovering', release: phone } })
    expect((s as { sender?: string }).sender).toBeUndefined()
  })

  it('is refused while the wallet is being asked, and once it was asked and may hold the transfer', () => {
    for (const work of ['checking', 'switching', 'sending'] as const) expect(run(connected({ work }), disconnect)).toMatchObject({ work, sender: BUYER })
    const asked = connected({ record: recordOf({ promptedAt: NOW }) })
    expect(run(asked, disconnect)).toBe(asked)
  })

  it('after the phone ended the session: Connect again goes back to the choice, the mark of the ask kept (checked before any new send)', () => {
    const ended = { kind: 'wallet', problem: 'ended' } as const
    const s = run(connected({ record: recordOf({ promptedAt: NOW }), problem: ended }), disconnect)
    expect(s).toMatchObject({ tag: 'funding', record: { promptedAt: NOW }, connection: { tag: 'discovering', release: phone } })
    expect((s as { problem?: unknown }).problem).toBeUndefined()
    // Chosen again, the send still waits for the re-check and the buyer's second confirmation.
    const again = run(
      s,
      toFunding({ type: 'WALLET', event: { type: 'WALLETS', wallets: [phone] } }),
      toFunding({ type: 'WALLET', event: { type: 'CHOOSE', wallet: phone } }),
      toFunding({ type: 'WALLET', event: { type: 'CONNECTED', account: BUYER } }),
    )
    expect(again).toMatchObject({ sender: BUYER })
    expect(run(again, toFunding({ type: 'CONFIRM', now: NOW }))).toBe(again)
  })

  it('with its effects: the session ends once (sign-client’s disconnect), the wallets are listed again, nothing is sent', async () => {
    const ends: string[] = []
    const session = { request: async () => [], disconnect: async () => void ends.push('disconnect') }
    const d = drive(connected(), { partner: fakePartner({}), wallets: [phone], deps: { providerOf: () => session } })
    d.dispatch(disconnect)
    await until(() => ends.length === 1, 'the session ended')
    await d.clock.advance(1_000)
    await until(() => (d.state() as { connection?: { tag: string } }).connection?.tag === 'wallets', 'the wallets listed again')
    expect(d.state()).toMatchObject({ tag: 'funding', record: { id: 'bp_1' } })
    expect((d.state() as { sender?: string }).sender).toBeUndefined()
    expect(ends).toEqual(['disconnect'])
    expect(d.sent).toEqual([])
  })
})

describe('a session the phone ended before the send', () => {
  it('is told before any mark of an ask (the chain read first fails with the end): nothing sent, and Connect again is the way on', async () => {
    // As wallet/walletConnectWallet.tsx answers once the phone ended the session.
    const ended = Object.assign(new Error('The WalletConnect session has ended'), { name: 'WalletConnectSessionEnded', code: 4900, by: 'wallet' })
    const w = fakeWallet()
    w.actions.currentChainId = async () => {
      throw ended
    }
    const d = drive(connected(), {
      partner: fakePartner({ '/bank/payout/status': [{ id: 'bp_1', status: 'pending' }] }),
      wallet: w,
      deps: { providerOf: () => ({ request: async () => [] }) },
    })
    d.dispatch(toFunding({ type: 'CONFIRM', now: NOW }))
    await until(() => (d.state() as { problem?: unknown }).problem !== undefined, 'the problem said')
    expect(d.state()).toMatchObject({ tag: 'funding', work: 'idle', problem: { kind: 'wallet', problem: 'ended' } })
    expect((d.state() as { record: { promptedAt?: number } }).record.promptedAt).toBeUndefined()
    expect(d.sent).toEqual([])
    d.dispatch(disconnect)
    expect(d.state()).toMatchObject({ connection: { tag: 'discovering', release: phone } })
  })
})

describe('the connect step’s Disconnect (a session on another account than the one that must pay)', () => {
  it('the phone’s session answered with another account: refused, and Disconnect lets it go (a new pairing may name the right one)', () => {
    const refused = run(connectState(buyer), ...choose(phone), toFunding({ type: 'WALLET', event: { type: 'CONNECTED', account: OTHER } }))
    expect(refused).toMatchObject({ tag: 'connect', problem: { kind: 'check' }, wallet: phone })
    const s = run(refused, disconnect)
    expect(s).toMatchObject({ tag: 'connect', form: { amount: '20' }, connection: { tag: 'discovering', release: phone } })
    expect((s as { problem?: unknown; wallet?: unknown }).problem).toBeUndefined()
    expect((s as { wallet?: unknown }).wallet).toBeUndefined()
  })

  it('with nothing connected, or while a wallet is asked, there is nothing to let go of', () => {
    const none = connectState(buyer)
    expect(run(none, disconnect)).toBe(none)
    const asking = run(none, ...choose(phone))
    expect(run(asking, disconnect)).toBe(asking)
  })
})
