// How a bank flow begins: with the buyer the service already knows, or with the identity steps
// (perhaps back from the identity provider with a single-use code in the address bar).
import { useEffect } from 'preact/hooks'
import type { WidgetConfig } from '../config/config'
import { withoutPairs } from '../config/signedLink'
import type { Services } from '../services'
import { type BuyerAccount, type BuyerAccountStore, buyerAccount, knownBuyer } from './account'
import { identityDraft } from './draft'
import { type IdentityEvent, type IdentityState, emptyApplicant, initialIdentity } from './machine'
import { usedAuthCodes } from './usedCodes'

export type IdentityStart = {
  /** The buyer the service knows (the link's signed one, or this device's for this wallet): the identity steps are skipped. */
  account?: BuyerAccount
  /** Where the identity steps begin when there is no such buyer. */
  identity: IdentityState
  accounts: BuyerAccountStore
  usedCodes: ReturnType<typeof usedAuthCodes>
}

export function identityStart(config: WidgetConfig, local: Storage | undefined, session: Storage | undefined): IdentityStart {
  const accounts = buyerAccount(local)
  const usedCodes = usedAuthCodes(local)
  // The code is single use: drop it from the address bar so a reload cannot send it again.
  const code = config.authCode && !usedCodes.has(config.authCode) ? config.authCode : undefined
  // Verbatim, not re-serialised: a signed link must still verify after a reload.
  if (config.authCode && typeof history !== 'undefined') history.replaceState(history.state, '', withoutPairs(location.href, 'authCode'))
  const typed = identityDraft(session).take()
  const wallet = config.walletAddress ?? typed?.form.wallet ?? ''
  const account = knownBuyer(accounts, config)
  return { account, identity: initialIdentity({ ...emptyApplicant, ...typed?.form, wallet }, code, typed?.serverMessage), accounts, usedCodes }
}

/**
 * While the identity steps show: what the buyer typed waits in this tab across the verification (a
 * full navigation), and a code the embedding hands over later (script callback, frame message) arrives.
 */
export function useIdentitySync(state: { tag: string }, dispatch: (event: IdentityEvent) => void, services: Services, session: Storage | undefined) {
  const identity = state.tag === 'identity' ? (state as Extract<IdentityState, { tag: 'identity' }>) : undefined
  useEffect(() => {
    if (identity) identityDraft(session).put({ form: identity.form, serverMessage: identity.serverMessage })
  }, [identity?.form, identity?.serverMessage])
  const authCode = services.live.value.authCode
  useEffect(() => {
    if (authCode && authCode !== services.config.authCode) dispatch({ type: 'AUTH_CODE', code: authCode })
  }, [authCode])
}
