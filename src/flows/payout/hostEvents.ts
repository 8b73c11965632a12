import { type WidgetConfig, chainOf } from '../../config/config'
import type { WidgetEvent } from '../../config/protocol'
import { payoutProblem } from '../../errors/payoutWords'
import { type ErrorPayload, errorPayload, problemText, sendProblemCode, sendProblemText } from '../../errors/words'
import { addDecimal } from '../../lib/decimal'
import { fundingContext } from './fundingText'
import type { PayoutState } from './machine'
import type { Problem } from '../../errors/problem'
import { payoutSourceOf } from './source'

/** What the embedding hears about a payout, from one change of state. Pure. */
export function payoutEvents(prev: PayoutState, next: PayoutState, config: WidgetConfig, flow: 'payout' | 'cardPayout' = 'payout'): WidgetEvent[] {
  const out: WidgetEvent[] = []
  if (prev.tag !== next.tag) out.push({ name: 'screen', payload: { flow, screen: next.tag } })
  if (next.tag === 'quote' && (prev.tag !== 'quote' || prev.quote !== next.quote)) {
    const q = next.quote
    const symbol = sourceSymbol(config)
    // Both fees, as the quote names them; `fee` is their exact sum (both come out of what arrives).
    out.push({
      name: 'quote',
      payload: {
        flow,
        amountIn: q.cryptoAmount,
        amountOut: q.fiatAmount,
        fee: addDecimal(q.providerFee, q.ourFee),
        providerFee: q.providerFee,
        ourFee: q.ourFee,
        currencyIn: symbol,
        currencyOut: next.ask.currency,
        expiresAt: q.expiresAt,
      },
    })
  }
  if (next.tag === 'funding' && (prev.tag === 'beneficiary' || prev.tag === 'card')) out.push({ name: 'submitted', payload: { flow, id: next.record.id } })
  const status = statusOf(next)
  if (status && status !== statusOf(prev) && (next.tag === 'tracking' || next.tag === 'result')) {
    out.push({ name: 'status', payload: { flow, id: next.record.id, status } })
  }
  // A result shown again after a reload (its record keeps it) was told when it ended: not a second `complete`.
  if (next.tag === 'result' && prev.tag !== 'result' && !isStart(prev)) {
    const s = next.status
    out.push({
      name: 'complete',
      payload: {
        flow,
        id: next.record.id,
        outcome: s.status,
        amount: s.fiatAmount ?? next.record.fiatAmount,
        currency: s.fiatCurrency ?? next.record.fiatCurrency,
        txHash: next.record.txHash,
      },
    })
  }
  const problem = problemOf(next, config, flow)
  if (problem && problem.source !== problemOf(prev, config, flow)?.source) out.push({ name: 'error', payload: { flow, ...problem.payload } })
  return out
}

/** The flow's first state comes from `{ tag: 'start' }` (kernel/useFlowMachine.ts). */
const isStart = (s: PayoutState) => (s.tag as string) === 'start'

function sourceSymbol(config: WidgetConfig): string {
  return payoutSourceOf(config).symbol
}

function statusOf(s: PayoutState): string | undefined {
  if (s.tag === 'tracking') return s.status?.status
  if (s.tag === 'result') return s.status.status
  return undefined
}

function problemOf(s: PayoutState, config: WidgetConfig, flow: 'payout' | 'cardPayout'): { source: object; payload: ErrorPayload } | undefined {
  if (s.tag === 'form' && s.error?.kind === 'api') return { source: s.error, payload: told(s.error.problem) }
  if (s.tag === 'form' && s.error?.kind === 'ask') return { source: s.error, payload: told(payoutProblem(s.error, flow === 'cardPayout')) }
  if ((s.tag === 'beneficiary' || s.tag === 'card' || s.tag === 'tracking') && s.problem) return { source: s.problem, payload: told(s.problem) }
  if (s.tag === 'connect' && s.problem) {
    const source = payoutSourceOf(config)
    const text = sendProblemText(s.problem, {
      flow: 'payout',
      chain: chainOf(config, source.chainId).name,
      symbol: source.symbol,
      amount: s.quote.cryptoAmount,
    })
    return { source: s.problem, payload: errorPayload({ code: sendProblemCode(s.problem) }, text) }
  }
  if (s.tag === 'funding' && s.problem) {
    const text = sendProblemText(s.problem, fundingContext(s.record, chainOf(config, s.record.chain).name, config.locale))
    return { source: s.problem, payload: errorPayload({ code: sendProblemCode(s.problem) }, text) }
  }
  return undefined
}

const told = (problem: Problem) => errorPayload(problem, problemText(problem))
