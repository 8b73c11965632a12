// The connect-wallet sub-machine alone: found, chosen, connected, refused, cancelled.
import { describe, expect, it } from 'vitest'
import { type ChosenWallet, type ConnectWalletEvent, connectWallet, disconnected } from '../../../src/kernel/connectWallet'
import { connectWalletEffects } from '../../../src/kernel/connectWalletEffects'
import { createFakeClock } from '../helpers/fakeClock'

const wallet: ChosenWallet = { kind: 'injected', id: 'w1', name: 'W', rdns: 'io.w' }

describe('connect-wallet', () => {
  it('finds, chooses and ends connected with the account', () => {
    const found = connectWallet(disconnected(), { type: 'WALLETS', wallets: [wallet] })
    expect(found).toEqual({ tag: 'wallets', wallets: [wallet], problem: undefined })
    const connecting = connectWallet(found as never, { type: 'CHOOSE', wallet })
    expect(connecting).toEqual({ tag: 'connecting', wallets: [wallet], wallet })
    expect(connectWallet(connecting as never, { type: 'CONNECTED', account: '0xabc' })).toEqual({ tag: 'connected', wallet, account: '0xabc' })
  })

  it('a refusal goes back to the choice with its problem; BACK without; nothing is chosen while discovering', () => {
    const connecting = { tag: 'connecting' as const, wallets: [wallet], wallet }
    expect(connectWallet(connecting, { type: 'REFUSED', problem: 'noAccount' })).toEqual({ tag: 'wallets', wallets: [wallet], problem: 'noAccount' })
    expect(connectWallet(connecting, { type: 'BACK' })).toEqual({ tag: 'wallets', wallets: [wallet] })
    expect(connectWallet(connecting, { type: 'WALLETS', wallets: [] })).toBe(connecting)
    const discovering = disconnected()
    expect(connectWallet(discovering, { type: 'CHOOSE', wallet })).toBe(discovering)
    expect(connectWallet({ tag: 'wallets', wallets: [] }, { type: 'RESCAN' })).toEqual({ tag: 'discovering' })
  })
})

describe('connect-wallet: a wallet found again without asking', () => {
  it('RECONNECTED ends connected from the choice (nothing was asked); never over a wallet being asked', () => {
    expect(connectWallet(disconnected(), { type: 'RECONNECTED', wallet, account: '0xabc' })).toEqual({ tag: 'connected', wallet, account: '0xabc' })
    expect(connectWallet({ tag: 'wallets', wallets: [wallet] }, { type: 'RECONNECTED', wallet, account: '0xabc' })).toMatchObject({ tag: 'connected' })
    const connecting = { tag: 'connecting' as const, wallets: [wallet], wallet }
    expect(connectWallet(connecting, { type: 'RECONNECTED', wallet, account: '0xabc' })).toBe(connecting)
  })

  it('reconnect asks each wallet eth_accounts only, and connects the one that lists the account', async () => {
    const clock = createFakeClock(0)
    const other = { id: 'w2', name: 'Other', rdns: 'io.other' }
    const asked: Array<{ id: string; method: string }> = []
    const accounts: Record<string, unknown> = { w1: ['0xABC'], w2: ['0xdef'] }
    const events: ConnectWalletEvent[] = []
    const effects = connectWalletEffects(
      {
        discover: (onChange) => (onChange([other, wallet]), () => {}),
        providerOf: (chosen) => ({
          request: async ({ method }) => (asked.push({ id: chosen.id, method }), accounts[chosen.id]),
        }),
        loadConnect: async () => ({ connect: async () => '0xabc' }),
        clock,
      },
      (event) => events.push(event),
    )
    effects.reconnect('0xabc').start(() => true, new AbortController().signal)
    await new Promise((r) => setTimeout(r, 0))
    expect(asked.map((a) => a.method)).toEqual(['eth_accounts', 'eth_accounts'])
    expect(events.filter((e) => e.type === 'RECONNECTED')).toEqual([{ type: 'RECONNECTED', wallet, account: '0xabc' }])
    // Each wallet answered in time: no wait for an answer is left behind.
    expect(clock.pending()).toBe(0)
  })

  it("two wallets that both hold the account: the first in the page's order is taken, however fast the other answers", async () => {
    const fast = { id: 'w2', name: 'Fast', rdns: 'io.fast' }
    const events: ConnectWalletEvent[] = []
    const effects = connectWalletEffects(
      {
        discover: (onChange) => (onChange([wallet, fast]), () => {}),
        providerOf: (chosen) => ({
          request: async () => {
            if (chosen.id === 'w1') await new Promise((r) => setTimeout(r, 20))
            return ['0xabc']
          },
        }),
        loadConnect: async () => ({ connect: async () => '0xabc' }),
        clock: createFakeClock(0),
      },
      (event) => events.push(event),
    )
    effects.reconnect('0xabc').start(() => true, new AbortController().signal)
    await new Promise((r) => setTimeout(r, 60))
    expect(events.filter((e) => e.type === 'RECONNECTED')).toEqual([{ type: 'RECONNECTED', wallet, account: '0xabc' }])
  })
})

describe('connect-wallet: another wallet, once one is connected', () => {
  it('a composer starting over names the wallet to let go; looking again does not let go twice', () => {
    expect(disconnected(wallet)).toEqual({ tag: 'discovering', release: wallet })
    expect(connectWallet(disconnected(wallet), { type: 'WALLETS', wallets: [wallet] })).toEqual({ tag: 'wallets', wallets: [wallet], problem: undefined })
  })

  it('release ends a wallet session that can end (WalletConnect), once, and asks nothing of a wallet that cannot', async () => {
    const ended: string[] = []
    const providers: Record<string, { request: () => Promise<unknown>; disconnect?: () => Promise<void> }> = {
      w1: { request: async () => [], disconnect: async () => void ended.push('w1') },
      w2: { request: async () => [] },
    }
    const effects = connectWalletEffects(
      {
        discover: () => () => {},
        providerOf: (chosen) => providers[chosen.id],
        loadConnect: async () => ({ connect: async () => undefined }),
        clock: createFakeClock(0),
      },
      () => {},
    )
    const release = effects.release(wallet)
    expect(release.key).toBe('release:w1')
    release.start(() => true, new AbortController().signal)
    effects.release({ ...wallet, id: 'w2' }).start(() => true, new AbortController().signal)
    await new Promise((r) => setTimeout(r, 0))
    expect(ended).toEqual(['w1'])
  })
})

describe('connect-wallet: an answer that comes after the buyer left', () => {
  // The buyer typed an address (or pressed Back) while the phone was still asked; the phone approves
  // later. Nothing is dispatched, and the session is left alone: a new attempt on the same wallet
  // may be waiting on that same approval (WalletConnect shares one pending connect), so ending it
  // here would end the buyer's next connection (a second attacker review).
  it.each([
    ['WalletConnect', { ...wallet, id: 'walletconnect', rdns: 'com.walletconnect' }],
    ['an injected wallet', wallet],
  ] as const)('%s: nothing said, nothing ended', async (_name, chosen) => {
    let release: (account: string) => void = () => {}
    let disconnects = 0
    const events: ConnectWalletEvent[] = []
    const effects = connectWalletEffects(
      {
        discover: () => () => {},
        providerOf: () => ({ request: async () => [], disconnect: async () => void disconnects++ }),
        loadConnect: async () => ({ connect: () => new Promise<string>((resolve) => (release = resolve)) }),
        clock: createFakeClock(0),
      },
      (event) => events.push(event),
    )
    let alive = true
    effects.connect(chosen).start(() => alive, new AbortController().signal)
    await new Promise((r) => setTimeout(r, 0))
    alive = false
    release('0xabc')
    await new Promise((r) => setTimeout(r, 0))
    expect(events).toEqual([])
    expect(disconnects).toBe(0)
  })
})
