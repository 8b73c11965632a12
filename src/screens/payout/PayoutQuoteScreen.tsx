import { Countdown } from '../../components/Countdown'
import { Notice } from '../../components/Notice'
import { Screen } from '../../components/Screen'
import type { PayoutEvent, QuoteState, Source } from '../../flows/payout'
import { t } from '../../i18n/i18n'
import { formatAmount } from '../../lib/decimal'
import { limitText, settlementText } from '../../i18n/limits'
import { pickLimit, railKind, railName } from '../../lib/limits'

type State = QuoteState

export function PayoutQuoteScreen({ state, dispatch, source, locale }: { state: State; dispatch: (e: PayoutEvent) => void; source: Source; locale: string }) {
  const { quote } = state
  const fiat = state.ask.currency
  const f = (v: string) => formatAmount(v, locale)
  // A bank payout's rail and its settlement time from GET /limits (the quote's own coarse label when limits are not known); a card's has neither.
  const bank = 'rail' in quote ? quote : undefined
  const entry = bank && state.limits && pickLimit(state.limits, { currency: fiat, direction: 'payout', rail: bank.rail })
  const settlement = bank && limitText(settlementText((entry || undefined)?.settlement ?? bank.estimatedSettlement))
  return (
    <Screen title={t('payout.quoteHeading')}>
      <table class={`quote ${state.refreshed ? 'fresh' : ''}`}>
        <tbody>
          <tr class="total">
            <th scope="row">{t('payout.youSend')}</th>
            <td>{f(quote.cryptoAmount)} {source.symbol}</td>
          </tr>
          <tr>
            <th scope="row">{t('payout.rate')}</th>
            <td>{t('payout.rateValue', { crypto: source.symbol, rate: f(quote.rate), fiat })}</td>
          </tr>
          <tr>
            <th scope="row">{t(bank ? 'payout.providerFee' : 'cardPayout.providerFee')}</th>
            <td>{f(quote.providerFee)} {fiat}</td>
          </tr>
          <tr>
            <th scope="row">{t('payout.ourFee')}</th>
            <td>{f(quote.ourFee)} {fiat}</td>
          </tr>
          <tr class="total">
            <th scope="row">{t(!bank ? 'cardPayout.arrives' : railKind(bank.rail) === 'bank' ? 'payout.arrives' : `payout.${railKind(bank.rail) as 'mobile' | 'wallet'}.arrives`)}</th>
            <td>{f(quote.fiatAmount)} {fiat}</td>
          </tr>
          {bank && (
            <>
              <tr>
                <th scope="row">{t('payout.railRow')}</th>
                <td>{railName(bank.rail)}</td>
              </tr>
              <tr>
                <th scope="row">{t('payout.settlementRow')}</th>
                <td>{settlement}</td>
              </tr>
            </>
          )}
          {!bank && (
            <tr>
              <th scope="row">{t('payout.settlementRow')}</th>
              <td>{t('cardPayout.timing')}</td>
            </tr>
          )}
        </tbody>
      </table>
      <p class="muted">{t('payout.feesInside')}</p>
      {state.stale ? <Notice tone="warning">{t('error.quoteExpired')}</Notice> : <Countdown expiresAt={quote.expiresAt} />}
      {state.refreshed && <Notice tone="info">{t('quote.refreshed')}</Notice>}
      <div class="actions">
        <button type="button" class="secondary" onClick={() => dispatch({ type: 'BACK' })}>
          {t('app.back')}
        </button>
        <button type="button" class="primary" onClick={() => dispatch(state.stale ? { type: 'REQUOTE' } : { type: 'CONFIRM', now: Date.now() })}>
          {state.stale ? t('quote.tryAgain') : t('payout.continue')}
        </button>
      </div>
    </Screen>
  )
}
