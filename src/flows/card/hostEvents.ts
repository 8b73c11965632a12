import type { WidgetEvent } from '../../config/protocol'
import { errorPayload, problemText } from '../../errors/words'
import { cardRedirectProblem } from '../../errors/cardProblems'
import { addDecimal } from '../../lib/decimal'
import type { CardState } from './machine'

/** What the embedding hears about a card payment, from one change of state. Pure. */
export function cardEvents(prev: CardState, next: CardState): WidgetEvent[] {
  const out: WidgetEvent[] = []
  const flow = 'card' as const
  if (prev.tag !== next.tag) out.push({ name: 'screen', payload: { flow, screen: next.tag } })
  if (next.tag === 'quote' && (prev.tag !== 'quote' || prev.quote !== next.quote)) {
    const q = next.quote
    // Both fees, as the quote names them; `fee` is their exact sum (both are inside the total).
    const payload = {
      flow,
      amountIn: q.total,
      amountOut: q.cryptoAmount,
      fee: addDecimal(q.providerFee, q.ourFee),
      providerFee: q.providerFee,
      ourFee: q.ourFee,
      currencyIn: next.form.currency,
      currencyOut: q.cryptoCurrency,
      expiresAt: q.expiresAt,
    }
    out.push({ name: 'quote', payload })
  }
  if (next.tag === 'redirect' && prev.tag !== 'redirect') out.push({ name: 'submitted', payload: { flow, id: next.purchase.id } })
  const status = statusOf(next)
  if (status && status !== statusOf(prev) && (next.tag === 'tracking' || next.tag === 'result')) {
    out.push({ name: 'status', payload: { flow, id: next.purchase.id, status } })
  }
  if (next.tag === 'result' && prev.tag !== 'result') {
    out.push({
      name: 'complete',
      payload: {
        flow,
        id: next.purchase.id,
        outcome: next.status.status,
        amount: next.status.cryptoAmount,
        currency: next.status.cryptoCurrency,
        txHash: next.status.txHash,
      },
    })
  }
  const problem =
    next.tag === 'form' && next.error?.kind === 'api' ? next.error.problem : next.tag === 'quote' || next.tag === 'tracking' ? next.problem : undefined
  const before =
    prev.tag === 'form' && prev.error?.kind === 'api' ? prev.error.problem : prev.tag === 'quote' || prev.tag === 'tracking' ? prev.problem : undefined
  if (problem && problem !== before) out.push({ name: 'error', payload: { flow, ...errorPayload(problem, problemText(problem)) } })
  if (next.tag === 'redirect' && next.problem && (prev.tag !== 'redirect' || !prev.problem)) {
    out.push({ name: 'error', payload: { flow, ...errorPayload(cardRedirectProblem(next.problem), problemText(cardRedirectProblem(next.problem))) } })
  }
  return out
}

function statusOf(s: CardState): string | undefined {
  return s.tag === 'tracking' ? s.status?.status : s.tag === 'result' ? s.status.status : undefined
}
