import { Notice, ProblemNotice } from '../../components/Notice'
import { Screen } from '../../components/Screen'
import type { CardState, DestinationEvent, Source } from '../../flows/payout'
import { t } from '../../i18n/i18n'

/**
 * The card that receives the money: entered on the card provider's secure page (a full navigation,
 * its number never reaches the widget), then the payout is created with the card that came back.
 */
export function CardScreen({ state, dispatch, source }: { state: CardState; dispatch: (e: DestinationEvent) => void; source: Source }) {
  const idle = state.work === 'idle'
  const again = !!state.cardSession
  return (
    <Screen title={t('cardPayout.cardHeading')}>
      <p>{t('cardPayout.cardIntro', { symbol: source.symbol })}</p>
      {state.cancelled && <Notice tone="info">{t('cardPayout.cancelled')}</Notice>}
      {again && idle && !state.problem && <Notice tone="info">{t('cardPayout.cardAdded')}</Notice>}
      {!idle && <p role="status">{t(state.work === 'opening' ? 'cardPayout.work.opening' : 'cardPayout.work.creating')}</p>}
      {state.problem && <ProblemNotice problem={state.problem} />}
      <div class="actions">
        <button data-back type="button" class="secondary" disabled={!idle} onClick={() => dispatch({ type: 'BACK' })}>
          {t('app.back')}
        </button>
        <button type="button" class="primary" disabled={!idle} onClick={() => dispatch({ type: 'SUBMIT', now: Date.now() })}>
          {again ? t('cardPayout.create') : t('cardPayout.openCard')}
        </button>
      </div>
    </Screen>
  )
}
