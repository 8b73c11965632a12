import { describe, expect, it } from 'vitest'
import { type IdentityEvent, type IdentityState, emptyApplicant, identityTransition, initialIdentity } from '../../../src/identity/machine'
import { type ChosenWallet, connectWallet } from '../../../src/kernel/connectWallet'
import { identityWalletEffects } from '../../../src/identity/walletEffects'
import { systemClock } from '../../../src/kernel/types'
import { WALLET } from '../helpers/applicant'

// The identity steps' wallet takes the connect-wallet sub-machine's events (kernel/connectWallet.ts)
// under WALLET, as the deposit and the payout's funding do; a typed address stays (the contract's
// `wallet` is an address, and nothing asks that it be connected).
const run = (s: IdentityState, ...events: IdentityEvent[]) =>
  events.reduce<IdentityState>((state, e) => {
    const next = identityTransition(state, e, { connectWallet })
    if (next.tag === 'onboarded') throw new Error('onboarded')
    return next
  }, s)

const phone: ChosenWallet = { kind: 'injected', id: 'walletconnect', name: 'WalletConnect', icon: '', rdns: 'com.walletconnect' }
const extension: ChosenWallet = { kind: 'injected', id: 'ext', name: 'Extension', icon: '', rdns: 'io.example' }
const wallets = [phone, extension].map(({ kind, ...info }) => info)

describe('the identity steps connect the wallet that receives', () => {
  it('starts looking for the page’s wallets beside the typed address', () => {
    expect(initialIdentity(emptyApplicant)).toEqual({ tag: 'wallet', form: emptyApplicant, connection: { tag: 'discovering' } })
  })

  it('a wallet chosen and connected fills the address and goes on to the verification', () => {
    const found = run(initialIdentity(emptyApplicant), { type: 'WALLET', event: { type: 'WALLETS', wallets } })
    expect(found).toMatchObject({ tag: 'wallet', connection: { tag: 'wallets', wallets } })
    const asking = run(found, { type: 'WALLET', event: { type: 'CHOOSE', wallet: phone } })
    expect(asking).toMatchObject({ tag: 'wallet', connection: { tag: 'connecting', wallet: phone } })
    // The phone's session gave the address and is asked nothing else: it ends as the step is left (walletEffects.ts).
    expect(run(asking, { type: 'WALLET', event: { type: 'CONNECTED', account: WALLET } })).toEqual({
      tag: 'identity',
      form: { ...emptyApplicant, wallet: WALLET },
      release: phone,
    })
  })

  it('an injected wallet gave the address: nothing to end (an extension is asked nothing)', () => {
    const asking = run(
      initialIdentity(emptyApplicant),
      { type: 'WALLET', event: { type: 'WALLETS', wallets } },
      { type: 'WALLET', event: { type: 'CHOOSE', wallet: extension } },
    )
    expect(run(asking, { type: 'WALLET', event: { type: 'CONNECTED', account: WALLET } })).toEqual({
      tag: 'identity',
      form: { ...emptyApplicant, wallet: WALLET },
    })
  })

  it('the WalletConnect session that gave the address is ended once the step is left, on the relay and in storage', () => {
    const effects = identityWalletEffects({ target: new EventTarget() as Window, config: { apiBase: 'https://api.example' }, clock: systemClock }, () => {})
    const keys = effects.effectOf({ tag: 'identity', form: { ...emptyApplicant, wallet: WALLET }, release: phone }).map((e) => e?.key)
    expect(keys).toContain('release:walletconnect')
    expect(effects.effectOf({ tag: 'identity', form: { ...emptyApplicant, wallet: WALLET } }).filter(Boolean)).toEqual([])
  })

  it('a refusal keeps the buyer on the step with the reason, and what was typed', () => {
    const typed = run(
      initialIdentity(emptyApplicant),
      { type: 'WALLET', event: { type: 'WALLETS', wallets } },
      { type: 'EDIT', field: 'wallet', value: '0x12' },
      { type: 'WALLET', event: { type: 'CHOOSE', wallet: extension } },
      { type: 'WALLET', event: { type: 'REFUSED', problem: 'rejected' } },
    )
    expect(typed).toEqual({ tag: 'wallet', form: { ...emptyApplicant, wallet: '0x12' }, connection: { tag: 'wallets', wallets, problem: 'rejected' } })
  })

  it('a typed address still goes on without any wallet, and is checked as before', () => {
    const s = run(initialIdentity(emptyApplicant), { type: 'EDIT', field: 'wallet', value: '0x12' }, { type: 'SUBMIT_WALLET' })
    expect(s).toMatchObject({ tag: 'wallet', error: 'address', connection: { tag: 'discovering' } })
    expect(run(s, { type: 'EDIT', field: 'wallet', value: WALLET }, { type: 'SUBMIT_WALLET' })).toEqual({
      tag: 'identity',
      form: { ...emptyApplicant, wallet: WALLET },
    })
  })

  it('back from the verification: the wallets are looked for again, the address kept', () => {
    const verifying = initialIdentity({ ...emptyApplicant, wallet: WALLET })
    expect(run(verifying, { type: 'BACK' })).toEqual({ tag: 'wallet', form: { ...emptyApplicant, wallet: WALLET }, connection: { tag: 'discovering' } })
  })

  it('a wallet event outside the wallet step changes nothing', () => {
    const verifying = initialIdentity({ ...emptyApplicant, wallet: WALLET })
    expect(run(verifying, { type: 'WALLET', event: { type: 'CONNECTED', account: WALLET } })).toBe(verifying)
  })

  it('before the flow hands in the sub-machine (with its effects, which look for the wallets), a wallet event changes nothing', () => {
    const start = initialIdentity(emptyApplicant)
    expect(identityTransition(start, { type: 'WALLET', event: { type: 'WALLETS', wallets } })).toBe(start)
  })
})
