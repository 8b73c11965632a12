// The card payout's card page, refused: the catalog key and the code for support are chosen here,
// not in the flow (flows/payout/card.ts, loaded with the card payout only). Pure data.
import type { Problem } from './problem'

/** A card page on a host the registry does not name (lib/redirect.ts says why). */
export const cardPayoutRedirectProblem = (why: string): Problem => ({ key: 'cardPayout.redirectRefused', code: `redirect.${why}` })
