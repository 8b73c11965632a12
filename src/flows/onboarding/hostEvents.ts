import type { WidgetEvent } from '../../embed/protocol'
import { errorPayload, partnerProblemText } from '../../errors/words'
import type { OnboardingState } from './machine'

/** What the embedding hears about onboarding, from one change of state. Pure. */
export function onboardingEvents(prev: OnboardingState, next: OnboardingState): WidgetEvent[] {
  const out: WidgetEvent[] = []
  const flow = 'onboarding' as const
  if (prev.tag !== next.tag) out.push({ name: 'screen', payload: { flow, screen: next.tag } })
  if (next.tag === 'account' && prev.tag !== 'account') {
    out.push({ name: 'submitted', payload: { flow, id: next.record.virtualAccountId } })
    out.push({ name: 'status', payload: { flow, id: next.record.virtualAccountId, status: 'awaiting_deposit' } })
  }
  if (next.tag === 'funded' && prev.tag !== 'funded') {
    out.push({ name: 'status', payload: { flow, id: next.record.virtualAccountId, status: 'funded' } })
    out.push({ name: 'complete', payload: { flow, id: next.record.virtualAccountId, outcome: 'funded', amount: next.deliveredAmount } })
  }
  const problem = next.tag === 'details' || next.tag === 'identity' ? next.serverMessage?.problem : next.tag === 'opening' || next.tag === 'account' ? next.problem : undefined
  const before = prev.tag === 'details' || prev.tag === 'identity' ? prev.serverMessage?.problem : prev.tag === 'opening' || prev.tag === 'account' ? prev.problem : undefined
  if (problem && problem !== before) out.push({ name: 'error', payload: { flow, ...errorPayload(problem, partnerProblemText) } })
  return out
}
