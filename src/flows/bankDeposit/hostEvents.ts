import type { WidgetEvent } from '../../config/protocol'
import { errorPayload } from '../../errors/words'
import type { Problem } from '../../kernel/types'
import type { BankDepositState } from './machine'

/** What the embedding hears about a one-off bank deposit, from one change of state. Pure. */
export function bankDepositEvents(prev: BankDepositState | { tag: string }, next: BankDepositState | { tag: string }): WidgetEvent[] {
  const out: WidgetEvent[] = []
  const flow = 'bankDeposit' as const
  if (prev.tag !== next.tag) out.push({ name: 'screen', payload: { flow, screen: next.tag } })
  const before = depositOf(prev)
  const after = depositOf(next)
  if (after && !before && prev.tag === 'amount') out.push({ name: 'submitted', payload: { flow, id: after.id } })
  if (after && (after.status !== before?.status || after.id !== before.id)) out.push({ name: 'status', payload: { flow, id: after.id, status: after.status } })
  if (next.tag === 'done' && prev.tag !== 'done' && 'status' in next) {
    const s = next.status
    out.push({ name: 'complete', payload: { flow, id: s.id, outcome: s.status, amount: s.cryptoAmount, currency: s.cryptoCurrency, txHash: s.settlementTxHash } })
  }
  const problem = problemOf(next)
  if (problem && problem !== problemOf(prev)) out.push({ name: 'error', payload: { flow, ...errorPayload(problem) } })
  return out
}

function depositOf(s: BankDepositState | { tag: string }): { id: string; status: string } | undefined {
  return (s.tag === 'following' || s.tag === 'done') && 'status' in s ? (s as Extract<BankDepositState, { tag: 'done' }>).status : undefined
}

function problemOf(s: BankDepositState | { tag: string }): Problem | undefined {
  if (s.tag === 'amount') {
    const a = s as Extract<BankDepositState, { tag: 'amount' }>
    return a.problem ?? a.loadProblem
  }
  return s.tag === 'following' ? (s as Extract<BankDepositState, { tag: 'following' }>).problem : undefined
}
