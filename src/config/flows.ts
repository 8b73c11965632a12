// The flows a partner may offer, and what each needs besides the service.
export const flows = ['deposit', 'card', 'onboarding', 'bankDeposit', 'payout', 'cardPayout'] as const
export type Flow = (typeof flows)[number]
/**
 * The flows offered where the registry entry or the options name none: in production every flow
 * but the virtual account (onboarding), which no production account stands behind yet
 * (partner-api.md); in the sandbox all of them.
 */
export const defaultFlows = (sandbox: boolean): Flow[] => flows.filter((f) => sandbox || f !== 'onboarding')

/**
 * What each flow needs besides the service: the partner-path flows the partner backend, the bank
 * flows the identity page. parseOptions refuses a flow without them (with words of its own); the
 * start screen offers only the flows that have them; the page draws a first screen only for them.
 */
export const FLOW_NEEDS: Record<Flow, ReadonlyArray<'partnerBase' | 'identityUrl'>> = {
  deposit: [],
  card: ['partnerBase'],
  onboarding: ['identityUrl'],
  bankDeposit: ['partnerBase', 'identityUrl'],
  payout: ['partnerBase', 'identityUrl'],
  cardPayout: ['partnerBase', 'identityUrl'],
}
