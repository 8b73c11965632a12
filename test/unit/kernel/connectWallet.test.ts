// The connect-wallet sub-machine alone: found, chosen, connected, refused, cancelled.
import { describe, expect, it } from 'vitest'
import { type ChosenWallet, connectWallet, disconnected } from '../../../src/kernel/connectWallet'

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
