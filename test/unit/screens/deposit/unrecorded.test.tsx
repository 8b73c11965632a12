// @vitest-environment happy-dom
// The partner's kit refused to record a sent deposit (403 wallet_not_linked): the deposit was sent,
// and is followed and ends as before. The buyer is told nothing untrue (the money is at the
// service; whether the shop credits it is the shop's matter): only what to do if the shop does not
// show the payment, with the whole transaction hash.
import { cleanup, render, screen } from '@testing-library/preact'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { DepositState, Outcome, Tracking } from '../../../../src/flows/deposit/machine'
import { enDeposit } from '../../../../src/i18n/en-deposit'
import { addEnglish } from '../../../../src/i18n/i18n'
import { ResultScreen } from '../../../../src/screens/deposit/ResultScreen'
import { TrackingScreen } from '../../../../src/screens/deposit/TrackingScreen'
import { depositConfig, trackingOf } from '../../helpers/deposit'
import { hashOf } from '../../helpers/fakeChain'

addEnglish(enDeposit)
afterEach(cleanup)

const WORDS = 'If the shop does not show this payment, contact the shop with this transaction.'
const HASH = hashOf(0xd0)
const refused: Tracking = { ...trackingOf(HASH), unrecorded: HASH }

const following = (tracking = refused): Extract<DepositState, { tag: 'tracking' }> => ({
  tag: 'tracking',
  tracking,
  phase: 'delivering',
  attempt: 0,
  tab: 'held',
})
const ended = (outcome: Outcome, tracking = refused): Extract<DepositState, { tag: 'result' }> => ({ tag: 'result', outcome, tracking })

describe('a deposit the kit refused to record', () => {
  it('while followed: the usual words, and what to do if the shop does not show it, with the whole hash', () => {
    render(<TrackingScreen state={following()} dispatch={vi.fn()} config={depositConfig} />)
    expect(screen.getByRole('heading', { name: 'Your deposit is on its way' })).toBeTruthy()
    expect(screen.getByText(WORDS, { exact: false })).toBeTruthy()
    expect(screen.getByText(HASH)).toBeTruthy()
  })

  it('delivered: the result as always, and the same words', () => {
    render(<ResultScreen state={ended('done')} dispatch={vi.fn()} config={depositConfig} />)
    expect(screen.getByRole('heading', { name: 'Deposit delivered' })).toBeTruthy()
    expect(screen.getByText(WORDS, { exact: false })).toBeTruthy()
    expect(screen.getByText(HASH)).toBeTruthy()
  })

  it('refunded (expired): nothing for the shop to show, so nothing said of it', () => {
    render(<ResultScreen state={ended('expired')} dispatch={vi.fn()} config={depositConfig} />)
    expect(screen.queryByText(WORDS, { exact: false })).toBeNull()
  })

  it('recorded, or refused for a hash the wallet has since replaced: nothing said', () => {
    render(<TrackingScreen state={following(trackingOf(HASH))} dispatch={vi.fn()} config={depositConfig} />)
    expect(screen.queryByText(WORDS, { exact: false })).toBeNull()
    cleanup()
    render(<TrackingScreen state={following({ ...trackingOf(hashOf(0xd1)), unrecorded: HASH })} dispatch={vi.fn()} config={depositConfig} />)
    expect(screen.queryByText(WORDS, { exact: false })).toBeNull()
  })
})
