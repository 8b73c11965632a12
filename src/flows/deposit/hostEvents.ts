import type { WidgetConfig } from '../../config/config'
import type { PaymentIds, WidgetEvent } from '../../config/protocol'
import { type DepositState, NO_SIGN_IN, trackingId, unrecorded } from './machine'
import { noticeContext, noticeText } from './notice'
import { UNRECORDED, rejectedProblem } from '../../errors/depositProblems'
import { type ErrorPayload, errorPayload, problemText, rejectionText, sendProblemCode } from '../../errors/words'

/** What the embedding hears about a deposit, from one change of state. */
export function depositEvents(prev: DepositState, next: DepositState, config: WidgetConfig): WidgetEvent[] {
  const out: WidgetEvent[] = []
  const flow = 'deposit' as const
  if (prev.tag !== next.tag) out.push({ name: 'screen', payload: { flow, screen: next.tag } })
  if (next.tag === 'quote' && (prev.tag !== 'quote' || prev.quote !== next.quote)) {
    const q = next.quote
    const currencyIn = (config.sources[next.form.source] ?? config.sources[0]).symbol
    const currencyOut = (config.destination ?? config.defaultDestination).symbol
    out.push({ name: 'quote', payload: { flow, amountIn: q.amountIn, amountOut: q.amountOut, fee: q.fee, currencyIn, currencyOut, expiresAt: q.expiresAt } })
  }
  const ids = idsOf(next)
  if (next.tag === 'tracking' && prev.tag === 'quote') out.push({ name: 'submitted', payload: { flow, id: trackingId(next.tracking), ...ids } })
  const status = statusOf(next)
  if (status && status !== statusOf(prev)) out.push({ name: 'status', payload: { flow, id: idOf(next), status, ...ids } })
  if (next.tag === 'result' && prev.tag !== 'result') {
    const { tracking } = next
    out.push({
      name: 'complete',
      payload: {
        flow,
        id: trackingId(tracking),
        outcome: next.outcome,
        amount: tracking.summary.amountOut,
        currency: tracking.summary.destSymbol,
        txHash: tracking.deliveredHash,
        ...ids,
      },
    })
  }
  // The kit refused to record it: once, with the words the buyer reads (no address, no wallet).
  if (isUnrecorded(next) && !isUnrecorded(prev)) out.push({ name: 'error', payload: { flow, ...errorPayload(UNRECORDED, problemText(UNRECORDED)) } })
  const problem = problemOf(next, config)
  if (problem && problem.source !== problemOf(prev, config)?.source) out.push({ name: 'error', payload: { flow, ...problem.payload } })
  return out
}

const isUnrecorded = (s: DepositState) => (s.tag === 'tracking' || s.tag === 'result') && unrecorded(s.tracking)

function statusOf(s: DepositState): string | undefined {
  if (s.tag === 'tracking') return s.phase === 'confirming' ? 'confirming' : 'pending'
  if (s.tag === 'result') return s.outcome
  return undefined
}

/** What a server looks the deposit up with, once its hash is known; the kit's id once it answered for that hash. */
function idsOf(s: DepositState): PaymentIds {
  if (s.tag !== 'tracking' && s.tag !== 'result') return {}
  const { provider, txHash, chainId, kit } = s.tracking
  return txHash ? { deposit: { provider, txHash, chainId, ...(kit?.txHash === txHash && { kitId: kit.id }) } } : {}
}

function idOf(s: DepositState): string {
  return s.tag === 'tracking' || s.tag === 'result' ? trackingId(s.tracking) : ''
}

/** The problem on screen, if any; `source` is the state's own object, so one problem is one event. */
function problemOf(s: DepositState, config: WidgetConfig): { source: object; payload: ErrorPayload } | undefined {
  if (s.tag === 'form' && s.error?.kind === 'api') return { source: s.error, payload: errorPayload(s.error.problem, problemText(s.error.problem)) }
  // The rule goes to the partner as the detail: which check the quote failed.
  if (s.tag === 'form' && s.error?.kind === 'rejected')
    return { source: s.error, payload: errorPayload(rejectedProblem(s.error.rejection), rejectionText(s.error.rejection)) }
  if (s.tag === 'quote' && s.notice)
    return { source: s.notice, payload: errorPayload({ code: sendProblemCode(s.notice) }, noticeText(s.notice, noticeContext(s, config))) }
  // The kit knows no buyer for this link: heard once, as the price is asked or shown (a new price for
  // the same request is no news), with the words the quote shows.
  if ((s.tag === 'quote' || s.tag === 'quoting') && s.session.noSignIn)
    return { source: NO_SIGN_IN, payload: errorPayload({ code: sendProblemCode(NO_SIGN_IN) }, problemText(NO_SIGN_IN.problem)) }
  if (s.tag === 'tracking' && s.problem) return { source: s.problem, payload: errorPayload(s.problem, problemText(s.problem)) }
  return undefined
}
