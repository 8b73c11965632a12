// A card payout's destination: the card, entered on the card provider's page (opened once asked
// for); back from it, the payout is created once with the session that came back. Pure.
import { carried } from './base'
import { type CardState, type DestinationEvent, type DestinationExit, type DestinationStep, answered, priceGone } from './destination'

export const cardStep: DestinationStep = {
  kind: 'card',
  enter: (state) => ({ ...carried(state), buyer: state.buyer, tag: 'card', ask: state.ask, quote: state.quote, quotedAt: state.quotedAt, work: 'idle' }),
  transition: (state, event) => (state.tag === 'card' ? (answered(state, event) ?? card(state, event)) : state),
}

function card(state: CardState, event: DestinationEvent): CardState | DestinationExit {
  const idle = state.work === 'idle'
  switch (event.type) {
    case 'SUBMIT':
      if (!idle) return state
      // An expired price is asked again before the card page, never after it.
      if (priceGone(state, event.now)) return { tag: 'requote' }
      // A session that came back `ok` and was not turned into a payout yet (a failed attempt) is used again.
      return { ...state, work: state.cardSession ? 'creating' : 'opening', problem: undefined, cancelled: false }
    case 'CARD_FAILED':
      return state.work === 'opening' ? { ...state, work: 'idle', problem: event.problem } : state
    case 'CREATE_FAILED':
      return state.work === 'creating' ? { ...state, work: 'idle', problem: event.problem } : state
    default:
      return state
  }
}
