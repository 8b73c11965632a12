import type { WidgetEvent } from '../../config/protocol'
import { errorPayload, partnerProblemText } from '../../errors/words'
import type { OnboardingState, OpenAccount } from './machine'

/** What the embedding hears about onboarding, from one change of state. Pure. */
export function onboardingEvents(prev: OnboardingState, next: OnboardingState): WidgetEvent[] {
  const out: WidgetEvent[] = []
  const flow = 'onboarding' as const
  if (prev.tag !== next.tag) {
    out.push({ name: 'screen', payload: { flow, screen: next.tag } })
    if (next.tag === 'tracking') {
      out.push({ name: 'submitted', payload: { flow, ...idsOf(next.record) } })
      out.push({ name: 'status', payload: { flow, ...idsOf(next.record), status: 'awaiting_deposit' } })
    }
    if (next.tag === 'result') {
      out.push({ name: 'status', payload: { flow, ...idsOf(next.record), status: 'funded' } })
      out.push({ name: 'complete', payload: { flow, outcome: 'funded', amount: next.deliveredAmount, ...idsOf(next.record) } })
    }
  }
  const problem = problemOf(next)
  if (problem && problem !== problemOf(prev)) out.push({ name: 'error', payload: { flow, ...errorPayload(problem, partnerProblemText(problem)) } })
  return out
}

/** The virtual account's ids as the contract names them (a server's `/fiat/status` takes accountId and virtualAccountId). */
const idsOf = ({ accountId, walletId, virtualAccountId }: OpenAccount) => ({ id: virtualAccountId, accountId, walletId, virtualAccountId })

const problemOf = (s: OnboardingState) =>
  s.tag === 'details' || s.tag === 'identity' ? s.serverMessage?.problem : s.tag === 'opening' || s.tag === 'tracking' ? s.problem : undefined
