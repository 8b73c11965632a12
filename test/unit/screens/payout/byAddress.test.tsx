// @vitest-environment happy-dom
// Issue 40, items 3 and 4: the payout without a wallet in the page. The connect step offers paying
// from another wallet or an exchange where the account's wallet is known, and on a phone the wallet
// apps' own browsers; the funding step shows the payout's transfer as a payment request (amount,
// token, chain, address, EIP-681 QR code, each to copy) while no wallet was asked for it.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact'
import axe from 'axe-core'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { FundingEvent, FundingState } from '../../../../src/flows/payout'
import { enLimits } from '../../../../src/i18n/shared/en-limits'
import { enPayout } from '../../../../src/i18n/en-payout'
import { addEnglish } from '../../../../src/i18n/i18n'
import { ConnectScreen } from '../../../../src/screens/payout/ConnectScreen'
import { FundingScreen } from '../../../../src/screens/payout/FundingScreen'
import { DEPOSIT, NOW, TOKEN, buyer, config, connectState, recordOf, source } from '../../helpers/payout'

addEnglish({ ...enPayout, ...enLimits })
afterEach(cleanup)

/** A phone (narrow, touch) or not, as components/WalletApps.tsx asks the page. */
const phone = (matches: boolean) => vi.stubGlobal('matchMedia', (query: string) => ({ matches, media: query, addEventListener() {}, removeEventListener() {} }))
beforeEach(() => phone(false))

const connect = connectState()
const BUYER_WALLET = '0x00000000000000000000000000000000000000b7'

describe('the connect step with no wallet in the page', () => {
  it('the account’s wallet known: one button pays from another wallet or an exchange', () => {
    const events: FundingEvent[] = []
    render(<ConnectScreen state={connect} dispatch={(e) => events.push(e)} source={source} config={config} byAddress />)
    fireEvent.click(screen.getByRole('button', { name: 'Send from another wallet or an exchange' }))
    expect(events).toEqual([{ type: 'BY_ADDRESS' }])
  })

  it('a buyer the service does not know yet is not offered it (the identity steps verify the wallet connected)', () => {
    render(<ConnectScreen state={connect} dispatch={() => {}} source={source} config={config} byAddress={false} />)
    expect(screen.queryByRole('button', { name: 'Send from another wallet or an exchange' })).toBeNull()
  })

  it('on a phone, the wallet apps’ own browsers open this same page', async () => {
    phone(true)
    render(<ConnectScreen state={connect} dispatch={() => {}} source={source} config={config} byAddress={false} />)
    const link = await screen.findByRole('link', { name: 'Open in MetaMask' })
    expect(link.getAttribute('href')).toMatch(/^https:\/\/link\.metamask\.io\/dapp\//)
    expect(screen.getByRole('link', { name: 'Open in Trust Wallet' })).toBeTruthy()
  })

  it('in a frame, the wallet apps open the widget as a full page, not the frame’s embed.html (as the deposit’s do)', async () => {
    phone(true)
    history.replaceState(null, '', '/embed.html?flow=payout&partner=acme-shop&partnerToken=tok-secret')
    vi.stubGlobal('top', {})
    try {
      render(<ConnectScreen state={connect} dispatch={() => {}} source={source} config={config} byAddress={false} />)
      const link = await screen.findByRole('link', { name: 'Open in MetaMask' })
      const opened = link.getAttribute('href') ?? ''
      expect(opened).not.toContain('embed.html')
      expect(opened).toMatch(/\/\?flow=payout&partner=acme-shop$/)
      expect(opened).not.toContain('tok-secret')
    } finally {
      vi.unstubAllGlobals()
      phone(false)
      history.replaceState(null, '', '/')
    }
  })
})

const funding = (extra: Partial<FundingState['record']> = {}): FundingState => ({
  tag: 'funding',
  buyer,
  record: recordOf(extra),
  connection: { tag: 'wallets', wallets: [] },
  work: 'idle',
})

describe('the funding step with no wallet connected', () => {
  it('offered by address: shows the payout’s transfer as an EIP-681 request, a QR code and a copy button for each detail; axe-clean', async () => {
    render(<FundingScreen state={funding({ offeredAt: NOW })} dispatch={() => {}} config={config} />)
    await screen.findByRole('img', { name: /QR code of this payment request for a wallet app: 22.282609 USDC on Base/ })
    const text = document.body.textContent ?? ''
    expect(text).toContain(`ethereum:${TOKEN}@8453/transfer?address=${DEPOSIT}&uint256=22282609`)
    expect(text).toContain('No wallet connected here?')
    // A bank payout: a return goes back to the wallet that sent (partner-api.md, returned).
    expect(text).toContain('If the bank returns the payout, the USDC come back to the wallet that sent them')
    expect(screen.getAllByRole('button', { name: /Copy/ }).length).toBeGreaterThanOrEqual(5)
    const { violations } = await axe.run(document.body)
    expect(violations.map((v) => v.id)).toEqual([])
  })

  it('a card payout says what the contract says of less: paid out, less lands on the card', async () => {
    render(<FundingScreen state={funding({ rail: undefined, card: { brand: 'visa', last4: '4242' }, offeredAt: NOW })} dispatch={() => {}} config={config} />)
    await waitFor(() => expect(document.body.textContent).toContain('Sending less than 22.282609 USDC does not cancel this payout'))
    expect(document.body.textContent).not.toContain('If the bank returns')
  })

  it('with a wallet connected, its Send is the way: no request inviting a second transfer from elsewhere', async () => {
    // An exchange's transfer not yet mined when the buyer then presses Send would fund the payout twice.
    render(<FundingScreen state={{ ...funding({ offeredAt: NOW }), sender: BUYER_WALLET }} dispatch={() => {}} config={config} />)
    await new Promise((r) => setTimeout(r, 50))
    expect(screen.queryByRole('img', { name: /QR code/ })).toBeNull()
    expect(document.body.textContent).not.toContain('ethereum:')
    expect(document.body.textContent).toContain(DEPOSIT)
  })

  it('once a wallet was asked for the transfer: no request to pay from elsewhere, only the address and the amount', async () => {
    render(<FundingScreen state={funding({ promptedAt: NOW, offeredAt: NOW })} dispatch={() => {}} config={config} />)
    await new Promise((r) => setTimeout(r, 50))
    expect(screen.queryByRole('img', { name: /QR code/ })).toBeNull()
    expect(document.body.textContent).not.toContain('ethereum:')
    expect(document.body.textContent).toContain(DEPOSIT)
  })
})

describe('the funding step of a payout not yet offered by address', () => {
  it('no wallet connected (a wallet lost on a reload): the request comes only when the buyer asks for it, so the payout is marked offered', async () => {
    const events: FundingEvent[] = []
    render(<FundingScreen state={funding()} dispatch={(e) => events.push(e)} config={config} />)
    await new Promise((r) => setTimeout(r, 50))
    expect(screen.queryByRole('img', { name: /QR code/ })).toBeNull()
    expect(document.body.textContent).toContain(DEPOSIT)
    fireEvent.click(screen.getByRole('button', { name: 'Send from another wallet or an exchange' }))
    expect(events).toEqual([{ type: 'OFFER', now: expect.any(Number) }])
  })
})

describe('a wallet connected after the payout was offered by address', () => {
  it('says a transfer made another way is followed, and sends only once the buyer ticks that none was made', async () => {
    const events: FundingEvent[] = []
    render(
      <FundingScreen
        state={{ ...funding({ offeredAt: NOW }), sender: BUYER_WALLET, wallet: { kind: 'injected', id: 'w|t', name: 'T', rdns: 't' } }}
        dispatch={(e) => events.push(e)}
        config={config}
      />,
    )
    expect(document.body.textContent).toContain('If you already sent it from another wallet or an exchange, do not send it again')
    const send = screen.getByRole('button', { name: /^Send 22.282609 USDC/ }) as HTMLButtonElement
    expect(send.disabled).toBe(true)
    fireEvent.click(screen.getByRole('checkbox', { name: 'I have not sent it from another wallet or an exchange' }))
    await waitFor(() => expect(send.disabled).toBe(false))
    fireEvent.click(send)
    expect(events).toEqual([{ type: 'CONFIRM', now: expect.any(Number), confirmed: true }])
  })
})

describe('Start over on a payout offered by address', () => {
  it('asks first: the warning, then “Start over anyway” starts over with the buyer’s word', async () => {
    const events: FundingEvent[] = []
    render(<FundingScreen state={funding({ offeredAt: NOW })} dispatch={(e) => events.push(e)} config={config} />)
    fireEvent.click(screen.getByRole('button', { name: 'Start over' }))
    expect(events).toEqual([])
    await screen.findByText(/If you already sent it from another wallet or an exchange, starting over stops following it here/)
    fireEvent.click(screen.getByRole('button', { name: 'Start over anyway' }))
    expect(events).toEqual([{ type: 'RESTART', confirmed: true }])
  })
})
