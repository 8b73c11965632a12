import { describe, expect, it } from 'vitest'
import type { DepositQuote } from '../../../../src/api/schemas'
import {
  type DepositEvent,
  type DepositState,
  type Context,
  initialState,
  type Preview,
  stepOf,
  type Tracking,
  transition,
} from '../../../../src/flows/deposit/machine'
import type { ChosenWallet } from '../../../../src/kernel/connectWallet'
import { summaryOf } from '../../helpers/deposit'

const ctx: Context = { sourceDecimals: [6, 18], decimalMark: '.' }
const run = (state: DepositState, ...events: DepositEvent[]) => events.reduce((s, e) => transition(s, e, ctx), state)

const A = (n: string) => `0x${n.repeat(40)}`
const H = (n: string) => `0x${n.repeat(64)}`
const wallet: ChosenWallet = { kind: 'injected', id: 'w1', name: 'Test Wallet', rdns: 'io.test.wallet' }
const other: ChosenWallet = { kind: 'injected', id: 'w2', name: 'Other', rdns: 'io.other' }
const ACCOUNT = A('1')
const quote: DepositQuote = {
  provider: 'relay',
  amountIn: '25.5',
  amountOut: '25.31',
  fee: '0.19',
  expiresAt: '2026-11-22T12:00:00Z',
  transaction: { chainId: 8453, to: A('c'), data: '0x', value: '0' },
}
const tracking: Tracking = {
  provider: 'relay',
  chainId: 8453,
  txHash: H('a'),
  walletRdns: wallet.rdns,
  summary: summaryOf('25.5', '25.31', '0.19'),
  createdAt: 1,
}

function as<T extends DepositState['tag']>(state: DepositState, tag: T): Extract<DepositState, { tag: T }> {
  expect(state.tag).toBe(tag)
  return state as Extract<DepositState, { tag: T }>
}

function formState(amount = '25.50') {
  return as(
    run(
      initialState(),
      { type: 'WALLET', event: { type: 'WALLETS', wallets: [wallet, other] } },
      { type: 'WALLET', event: { type: 'CHOOSE', wallet } },
      { type: 'WALLET', event: { type: 'CONNECTED', account: ACCOUNT } },
      { type: 'EDIT', amount },
    ),
    'form',
  )
}

const preview: Preview = { kind: 'ready', outflow: [{ amount: '25.5', symbol: 'USDC' }], fee: '0.00021', feeSymbol: 'ETH', safe: true }

function quoteState() {
  return as(run(formState(), { type: 'SUBMIT' }, { type: 'QUOTED', quote, at: 1000 }, { type: 'PREVIEW', preview }), 'quote')
}

function sendingState() {
  return as(run(quoteState(), { type: 'CONFIRM' }, { type: 'WORK', work: 'sending' }), 'quote')
}

function trackingState() {
  return as(run(sendingState(), { type: 'SENT', tracking }), 'tracking')
}

function deliveringState() {
  return as(run(trackingState(), { type: 'RECEIPT', success: true }), 'tracking')
}

describe('deposit machine', () => {
  it('walks the happy path from discovery to a delivered deposit', () => {
    let s = initialState()
    expect(s).toEqual({ tag: 'discovering', form: { amount: '', source: 0 } })
    expect(stepOf(s)).toEqual({ step: 1, of: 4 })

    s = run(s, { type: 'WALLET', event: { type: 'WALLETS', wallets: [wallet, other] } })
    expect(s).toMatchObject({ tag: 'wallets', wallets: [wallet, other] })
    s = run(s, { type: 'WALLET', event: { type: 'CHOOSE', wallet } })
    expect(s).toMatchObject({ tag: 'connecting', wallet })
    s = run(s, { type: 'WALLET', event: { type: 'CONNECTED', account: ACCOUNT } })
    expect(s).toMatchObject({ tag: 'form', session: { wallet, account: ACCOUNT } })
    expect(stepOf(s)).toEqual({ step: 2, of: 4 })

    s = run(s, { type: 'EDIT', amount: '25.1234567' }, { type: 'SUBMIT' })
    expect(s).toMatchObject({ tag: 'form', form: { amount: '25.1234567' }, error: { kind: 'amount', problem: 'decimals' } })
    s = run(s, { type: 'EDIT', amount: 'abc' }, { type: 'SUBMIT' })
    expect(s).toMatchObject({ tag: 'form', form: { amount: 'abc' }, error: { kind: 'amount', problem: 'format' } })
    s = run(s, { type: 'EDIT', amount: ' 25.50 ' })
    expect(as(s, 'form').error).toBeUndefined()

    s = run(s, { type: 'SUBMIT' })
    expect(s).toMatchObject({ tag: 'quoting', amount: '25.5', requote: false, form: { amount: ' 25.50 ' } })
    s = run(s, { type: 'QUOTED', quote, at: 1000 })
    expect(s).toMatchObject({ tag: 'quote', quote, quotedAt: 1000, work: 'idle', amount: '25.5' })
    expect(as(s, 'quote').notice).toBeUndefined()
    expect(stepOf(s)).toEqual({ step: 3, of: 4 })

    s = run(s, { type: 'CONFIRM' })
    expect(s).toMatchObject({ tag: 'quote', work: 'idle' }) // not before the preview
    s = run(s, { type: 'PREVIEW', preview }, { type: 'CONFIRM' })
    expect(s).toMatchObject({ tag: 'quote', work: 'checking', preview })
    s = run(s, { type: 'WORK', work: 'approving' })
    s = run(s, { type: 'WORK', work: 'approvalConfirming', approvalHash: H('e') })
    s = run(s, { type: 'WORK', work: 'sending' })
    expect(s).toMatchObject({ tag: 'quote', work: 'sending', approvalHash: H('e') })

    s = run(s, { type: 'SENT', tracking })
    expect(s).toMatchObject({ tag: 'tracking', phase: 'confirming', tracking, attempt: 0, session: { account: ACCOUNT } })
    expect(stepOf(s)).toEqual({ step: 4, of: 4 })

    s = run(s, { type: 'RECEIPT', success: true })
    expect(s).toMatchObject({ tag: 'tracking', phase: 'delivering' })

    s = run(s, { type: 'TRACK', status: 'pending', origin: H('0') })
    expect(s).toMatchObject({ tag: 'tracking', phase: 'delivering', tracking: { originHash: H('0') } })

    s = run(s, { type: 'TRACK', status: 'done', delivered: H('d') })
    expect(s).toMatchObject({
      tag: 'result',
      outcome: 'done',
      tracking: { txHash: H('a'), originHash: H('0'), deliveredHash: H('d') },
      session: { account: ACCOUNT },
    })
  })

  it('uses the decimals of the chosen source token and the configured decimal mark', () => {
    const eighteen = run(formState('1.123456789'), { type: 'EDIT', source: 1 }, { type: 'SUBMIT' })
    expect(eighteen).toMatchObject({ tag: 'quoting', amount: '1.123456789' })
    const comma = transition(formState('1,5'), { type: 'SUBMIT' }, { ...ctx, decimalMark: ',' })
    expect(comma).toMatchObject({ tag: 'quoting', amount: '1.5' })
  })

  it('a reverted receipt ends in result reverted', () => {
    expect(run(trackingState(), { type: 'RECEIPT', success: false })).toMatchObject({ tag: 'result', outcome: 'reverted', tracking })
  })

  it('a blocked send returns to the idle quote with a notice and the same quote', () => {
    const sending = sendingState()
    const s = as(run(sending, { type: 'BLOCKED', notice: { kind: 'wallet', problem: 'rejected' } }), 'quote')
    expect(s.work).toBe('idle')
    expect(s.notice).toEqual({ kind: 'wallet', problem: 'rejected' })
    expect(s.quote).toBe(sending.quote)
    expect(s.quotedAt).toBe(1000)
    expect(s.amount).toBe('25.5')
    expect(s.form).toBe(sending.form)
    expect(s.session).toBe(sending.session)
  })

  it('an expired quote at idle re-quotes, and the new quote says it was refreshed', () => {
    const requoting = run(quoteState(), { type: 'EXPIRED' })
    expect(requoting).toMatchObject({ tag: 'quoting', requote: true, amount: '25.5', form: { amount: '25.50' } })
    const fresh = { ...quote, amountOut: '25.30' }
    const s = run(requoting, { type: 'QUOTED', quote: fresh, at: 2000 })
    expect(s).toMatchObject({ tag: 'quote', quote: fresh, quotedAt: 2000, work: 'idle', refreshed: true })
  })

  it('an expired quote is ignored while the buyer is signing', () => {
    for (const step of ['checking', 'approving', 'sending'] as const) {
      const s = run(quoteState(), { type: 'CONFIRM' }, { type: 'WORK', work: step })
      expect(transition(s, { type: 'EXPIRED' }, ctx)).toBe(s)
    }
  })

  it('BACK while sending is ignored; BACK at idle returns to the form', () => {
    const sending = sendingState()
    expect(transition(sending, { type: 'BACK' }, ctx)).toBe(sending)
    expect(run(quoteState(), { type: 'BACK' })).toMatchObject({ tag: 'form', form: { amount: '25.50' } })
  })

  it('a no_route quote failure returns to the form with the amount and an api error', () => {
    const s = run(formState(), { type: 'SUBMIT' }, { type: 'QUOTE_FAILED', problem: { key: 'quote.noRoute', code: 'no_route' } })
    expect(s).toMatchObject({
      tag: 'form',
      form: { amount: '25.50' },
      session: { account: ACCOUNT },
      error: { kind: 'api', problem: { key: 'quote.noRoute', code: 'no_route' } },
    })
  })

  it('a repriced replacement follows the new hash and keeps confirming', () => {
    const s = run(trackingState(), { type: 'REPLACED', reason: 'repriced', txHash: H('b') })
    expect(s).toMatchObject({ tag: 'tracking', phase: 'confirming', replaced: true, tracking: { txHash: H('b'), provider: 'relay' } })
    expect(run(s, { type: 'RECEIPT', success: true })).toMatchObject({ phase: 'delivering', tracking: { txHash: H('b') } })
  })

  it('a cancelled replacement ends in result cancelled', () => {
    expect(run(trackingState(), { type: 'REPLACED', reason: 'cancelled', txHash: H('b') })).toMatchObject({
      tag: 'result',
      outcome: 'cancelled',
    })
  })

  it.each(['failed', 'expired'] as const)('STATUS %s ends with the matching outcome', (status) => {
    expect(run(deliveringState(), { type: 'TRACK', status })).toMatchObject({ tag: 'result', outcome: status })
  })

  it('events that do not apply leave the very same state object', () => {
    const cases: Array<[DepositState, DepositEvent]> = [
      [initialState(), { type: 'WALLET', event: { type: 'CONNECTED', account: ACCOUNT } }],
      [initialState(), { type: 'WALLET', event: { type: 'CHOOSE', wallet } }],
      [formState(), { type: 'QUOTED', quote, at: 1 }],
      [formState(), { type: 'TRACK', status: 'done' }],
      [run(formState(), { type: 'SUBMIT' }), { type: 'CONFIRM' }],
      [quoteState(), { type: 'WORK', work: 'sending' }],
      [quoteState(), { type: 'SENT', tracking }],
      [quoteState(), { type: 'BLOCKED', notice: { kind: 'wrongChain' } }],
      [sendingState(), { type: 'CONFIRM' }],
      [trackingState(), { type: 'TRACK', status: 'done' }],
      [trackingState(), { type: 'EDIT', amount: '1' }],
      [deliveringState(), { type: 'RECEIPT', success: false }],
      [deliveringState(), { type: 'REPLACED', reason: 'cancelled', txHash: H('b') }],
      [deliveringState(), { type: 'RETRY' }],
      [run(deliveringState(), { type: 'WAITING', waiting: true }), { type: 'WAITING', waiting: true }],
      [run(deliveringState(), { type: 'TRACK', status: 'done' }), { type: 'TRACK', status: 'failed' }],
      [run(deliveringState(), { type: 'TRACK', status: 'done' }), { type: 'SUBMIT' }],
    ]
    for (const [state, event] of cases) {
      expect(transition(state, event, ctx), `${state.tag} + ${event.type}`).toBe(state)
    }
  })

  it('follows waiting, track errors and retries while tracking', () => {
    let s = deliveringState()
    s = as(run(s, { type: 'WAITING', waiting: true }), 'tracking')
    expect(s.waiting).toBe(true)
    s = as(run(s, { type: 'TRACK_ERROR', problem: { key: 'error.network' } }), 'tracking')
    expect(s).toMatchObject({ problem: { key: 'error.network' }, waiting: false, attempt: 0 })
    s = as(run(s, { type: 'RETRY' }), 'tracking')
    expect(s.problem).toBeUndefined()
    expect(s.attempt).toBe(1)
  })

  it('resumes a persisted deposit in tracking/confirming', () => {
    const s = initialState(tracking)
    expect(s).toEqual({ tag: 'tracking', tracking, phase: 'confirming', attempt: 0 })
    expect(run(s, { type: 'RECEIPT', success: true }, { type: 'TRACK', status: 'done' })).toMatchObject({
      tag: 'result',
      outcome: 'done',
      session: undefined,
    })
  })

  it('RESTART from a result goes back to an empty form with the session, or to discovery without one', () => {
    const done = run(deliveringState(), { type: 'TRACK', status: 'done' })
    expect(run(done, { type: 'RESTART' })).toMatchObject({ tag: 'form', form: { amount: '', source: 0 }, session: { account: ACCOUNT } })
    const resumed = run(initialState(tracking), { type: 'RECEIPT', success: false })
    expect(run(resumed, { type: 'RESTART' })).toEqual({ tag: 'discovering', form: { amount: '', source: 0 } })
  })

  it('a failed connection returns to the wallet list with the problem; BACK cancels connecting', () => {
    const connecting = run(
      initialState(),
      { type: 'WALLET', event: { type: 'WALLETS', wallets: [wallet] } },
      { type: 'WALLET', event: { type: 'CHOOSE', wallet } },
    )
    expect(run(connecting, { type: 'WALLET', event: { type: 'REFUSED', problem: 'rejected' } })).toMatchObject({
      tag: 'wallets',
      wallets: [wallet],
      problem: 'rejected',
    })
    expect(run(connecting, { type: 'WALLET', event: { type: 'BACK' } })).toMatchObject({ tag: 'wallets', wallets: [wallet] })
  })
})

describe('a refused quote, the preview, a batch, an unreadable chain', () => {
  it('a quote refused while quoting goes back to the form with the rule, keeping the amount', () => {
    const s = run(formState(), { type: 'SUBMIT' }, { type: 'QUOTE_REJECTED', rejection: { rule: 'approval.amount' } })
    expect(as(s, 'form').error).toEqual({ kind: 'rejected', rejection: { rule: 'approval.amount' } })
    expect(as(s, 'form').form.amount).toBe('25.50')
  })

  it('a quote refused at any step of sending is dropped: only a new price goes on', () => {
    for (const step of ['checking', 'approving', 'sending'] as const) {
      const s = run(quoteState(), { type: 'CONFIRM' }, { type: 'WORK', work: step }, { type: 'QUOTE_REJECTED', rejection: { rule: 'chain' } })
      expect(as(s, 'form').error).toMatchObject({ kind: 'rejected' })
      const next = run(s, { type: 'SUBMIT' })
      expect(next).toMatchObject({ tag: 'quoting', requote: false })
    }
  })

  it('a preview is taken once, and only before sending', () => {
    const s = run(quoteState(), { type: 'PREVIEW', preview: { kind: 'unavailable' } })
    expect(as(s, 'quote').preview).toEqual(preview)
    const fresh = run(formState(), { type: 'SUBMIT' }, { type: 'QUOTED', quote, at: 1000 }, { type: 'PREVIEW', preview: { kind: 'unavailable' } })
    expect(as(fresh, 'quote').preview).toEqual({ kind: 'unavailable' })
  })

  it('only a safe preview (or a short balance the send reports) lets the buyer confirm; the others can run again', () => {
    const quoted = run(formState(), { type: 'SUBMIT' }, { type: 'QUOTED', quote, at: 1000 })
    for (const p of [{ kind: 'unavailable' }, { ...preview, safe: false }] as Preview[]) {
      const s = run(quoted, { type: 'PREVIEW', preview: p })
      expect(run(s, { type: 'CONFIRM' })).toMatchObject({ work: 'idle' })
      const again = as(run(s, { type: 'RETRY_PREVIEW' }), 'quote')
      expect(again).toMatchObject({ work: 'idle', previewAttempt: 1 })
      expect(again.preview).toBeUndefined()
    }
    expect(run(quoted, { type: 'PREVIEW', preview: { kind: 'short' } }, { type: 'CONFIRM' })).toMatchObject({ work: 'checking' })
    expect(run(quoted, { type: 'PREVIEW', preview }, { type: 'RETRY_PREVIEW' })).toMatchObject({ preview })
    // The send finds the balance enough after a "short" preview: back to a judged preview, no send.
    const sending = run(quoted, { type: 'PREVIEW', preview: { kind: 'short' } }, { type: 'CONFIRM' }, { type: 'RETRY_PREVIEW' })
    expect(sending).toMatchObject({ work: 'idle', previewAttempt: 1 })
    expect(as(sending, 'quote').preview).toBeUndefined()
  })

  it('a stale quote (expired on arrival, or valid too long) cannot be confirmed; the buyer asks again', () => {
    for (const stale of ['expired', 'far'] as const) {
      const s = run(formState(), { type: 'SUBMIT' }, { type: 'QUOTED', quote, at: 1000, stale }, { type: 'PREVIEW', preview })
      expect(run(s, { type: 'CONFIRM' })).toMatchObject({ tag: 'quote', work: 'idle', stale })
      expect(run(s, { type: 'REQUOTE' })).toMatchObject({ tag: 'quoting', requote: false })
    }
    expect(run(quoteState(), { type: 'REQUOTE' })).toMatchObject({ tag: 'quote' })
  })

  it('a batch is followed by its id, then by the hash the wallet tells', () => {
    const batch = { ...tracking, txHash: '', callsId: '0xbatch' }
    let s = run(quoteState(), { type: 'CONFIRM' }, { type: 'WORK', work: 'batching' }, { type: 'SENT', tracking: batch })
    expect(s).toMatchObject({ tag: 'tracking', phase: 'batching' })
    expect(run(s, { type: 'RECEIPT', success: true })).toBe(s)
    s = run(s, { type: 'BATCHED', txHash: H('d'), approvalHash: H('e') })
    expect(s).toMatchObject({ tag: 'tracking', phase: 'confirming', tracking: { txHash: H('d'), approvalHash: H('e'), callsId: '0xbatch' } })
    expect(run(s, { type: 'RECEIPT', success: true })).toMatchObject({ phase: 'delivering' })
  })

  it('a stored batch resumes as a batch; a failed one ends as reverted or not sent', () => {
    const batch = { ...tracking, txHash: '', callsId: '0xbatch' }
    const s = initialState(batch)
    expect(s).toMatchObject({ tag: 'tracking', phase: 'batching' })
    expect(run(s, { type: 'BATCH_FAILED', outcome: 'reverted' })).toMatchObject({ tag: 'result', outcome: 'reverted' })
    expect(run(s, { type: 'BATCH_FAILED', outcome: 'dropped' })).toMatchObject({ tag: 'result', outcome: 'dropped' })
  })

  it('an unreadable chain offers to stop following, which ends without claiming an outcome', () => {
    const s = initialState({ ...tracking, chainId: 999999 })
    expect(run(s, { type: 'STOP_FOLLOWING' })).toBe(s)
    const unreadable = run(s, { type: 'UNREADABLE' })
    expect(unreadable).toMatchObject({ tag: 'tracking', unreadable: true })
    expect(run(unreadable, { type: 'STOP_FOLLOWING' })).toMatchObject({ tag: 'result', outcome: 'unfollowed' })
  })
})

describe('another wallet, or the session ended: back to the choice with the amount kept', () => {
  it('from the form, the wallet connected is let go (a WalletConnect session ends) and the amount stays', () => {
    expect(run(formState('7'), { type: 'WALLET', event: { type: 'DISCONNECT' } })).toEqual({
      tag: 'discovering',
      release: wallet,
      form: formState('7').form,
    })
  })

  it('from the price, once idle (a session the phone ended: "connect again"); never while sending', () => {
    expect(run(quoteState(), { type: 'WALLET', event: { type: 'DISCONNECT' } })).toEqual({ tag: 'discovering', release: wallet, form: quoteState().form })
    const sending = sendingState()
    expect(run(sending, { type: 'WALLET', event: { type: 'DISCONNECT' } })).toBe(sending)
  })
})
