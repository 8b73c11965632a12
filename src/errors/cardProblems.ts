// The card payment's own failures, as the buyer and the partner are told them: the catalog key and
// the code for support are chosen here, not in the flow. Pure data.
import type { Problem } from './problem'

/** A card page on a host the registry does not name (lib/redirect.ts says why). */
export const cardRedirectProblem = (why: string): Problem => ({ key: 'card.redirectRefused', code: `redirect_${why}` })
