// The identity records' checks (zod), fetched when a record is stored, else once the first screen is up.
import { lazyPart } from '../kernel/lazyPart'
import { flowKey } from '../storage/storedCheck'

export const identityChecks = lazyPart(() => import('./storedChecks'))

export const DRAFT_KEY = 'stablecoin-widget:v1:identity-draft'
/** Where the identity records are: the account in localStorage, the draft in this tab's sessionStorage. */
export const identityKeys = { local: [flowKey('account')], session: [DRAFT_KEY] }
