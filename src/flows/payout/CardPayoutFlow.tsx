// The card payout: the payout flow (Payouts.tsx) whose fiat lands on a card entered on the card
// provider's page (its host on the registry's cardHosts), and the card's calls. EUR, GBP and USD only.
import { cardPayoutSchemas } from '../../api/cardPayout'
import { returnToThisLink } from '../../config/returnLink'
import { withoutPairs } from '../../config/signedLink'
import { enCardPayout } from '../../i18n/en-cardPayout'
import { addEnglish } from '../../i18n/i18n'
import { lazyPart } from '../../kernel/lazyPart'
import { CardScreen } from '../../screens/payout/CardScreen'
import { cardStep } from './cardStep'
import type { CardReturn } from './base'
import { type PayoutKind, type PayoutProps, Payouts } from './Payouts'

addEnglish(enCardPayout)

/** The currencies a card payout settles in (partner-api.md): any other is 422 no_route. */
export const CARD_PAYOUT_CURRENCIES = ['EUR', 'GBP', 'USD']

const card: PayoutKind = {
  name: 'cardPayout',
  destination: cardStep,
  calls: lazyPart(() => import('./card').then(({ cardCalls }) => ({ calls: cardCalls }))),
  DestinationScreen: ({ state, dispatch, source }) => (state.tag === 'card' ? <CardScreen state={state} dispatch={dispatch} source={source} /> : <></>),
  // The partner's currencies that a card payout settles in; all three where it names none of them.
  currencies: (config) => {
    const offered = config.fiatCurrencies.filter((c) => CARD_PAYOUT_CURRENCIES.includes(c))
    return offered.length > 0 ? offered : CARD_PAYOUT_CURRENCIES
  },
  schemas: cardPayoutSchemas,
  // This link, to come back to from the card page (no partnerToken, no spent code, no earlier return).
  returnUrl: () => returnToThisLink(withoutCardReturn(location.href), 'cardPayout'),
  cardReturn: takeCardReturn,
}

const withoutCardReturn = (href: string) => withoutPairs(withoutPairs(href, 'cardSession'), 'result')

/** The card page's way back (`cardSession=<id>&result=ok|cancelled`), read once and dropped from the address bar. */
function takeCardReturn(): CardReturn | undefined {
  if (typeof location === 'undefined') return undefined
  const params = new URLSearchParams(location.search)
  const session = params.get('cardSession')
  const result = params.get('result')
  if (!session) return undefined
  history.replaceState(history.state, '', withoutCardReturn(location.href))
  return { session, result: result === 'ok' ? 'ok' : 'cancelled', at: Date.now() }
}

export default function CardPayoutFlow(props: PayoutProps) {
  return <Payouts {...props} kind={card} />
}
