import type { WidgetEvent } from '../../config/protocol'
import { errorPayload, problemText } from '../../errors/words'
import type { Problem } from '../../kernel/types'
import type { BankDepositState, StatusView } from './machine'

/** What the embedding hears about a one-off bank deposit, from one change of state. Pure. */
export function bankDepositEvents(prev: BankDepositState, next: BankDepositState): WidgetEvent[] {
  const out: WidgetEvent[] = []
  const flow = 'bankDeposit' as const
  if (prev.tag !== next.tag) out.push({ name: 'screen', payload: { flow, screen: next.tag } })
  const before = statusOf(prev)
  const after = statusOf(next)
  if (after && !before && prev.tag === 'form') out.push({ name: 'submitted', payload: { flow, id: after.id } })
  if (after && (after.status !== before?.status || after.id !== before.id)) out.push({ name: 'status', payload: { flow, id: after.id, status: after.status } })
  if (next.tag === 'result' && prev.tag !== 'result') {
    const s = next.status
    out.push({
      name: 'complete',
      payload: { flow, id: s.id, outcome: s.status, amount: s.cryptoAmount, currency: s.cryptoCurrency, txHash: s.settlementTxHash },
    })
  }
  const problem = problemOf(next)
  if (problem && problem !== problemOf(prev)) out.push({ name: 'error', payload: { flow, ...errorPayload(problem, problemText(problem)) } })
  return out
}

function statusOf(s: BankDepositState): StatusView | undefined {
  return s.tag === 'tracking' || s.tag === 'result' ? s.status : undefined
}

function problemOf(s: BankDepositState): Problem | undefined {
  if (s.tag === 'form') return s.problem ?? s.loadProblem
  return s.tag === 'tracking' ? s.problem : undefined
}
