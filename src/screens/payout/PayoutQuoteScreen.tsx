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
  // A bank payout's quote names its rail; a card's does not.
  const bank = 'rail' in quote ? quote : undefined
  return (
    <Screen title={t('payout.quoteHeading')}>
      <table class={`quote ${state.refreshed ? 'fresh' : ''}`}>
        <tbody>
          <tr class="total">
            <th scope="row">{t('payout.youSend')}</th>
            <td>
              {f(quote.cryptoAmount)} {source.symbol}
            </td>
          </tr>
          <tr>
            <th scope="row">{t('payout.rate')}</th>
            <td>{t('payout.rateValue', { crypto: source.symbol, rate: f(quote.rate), fiat })}</td>
          </tr>
          <tr>
            <th scope="row">{t(bank ? 'payout.providerFee' : 'cardPayout.providerFee')}</th>
            <td>
              {f(quote.providerFee)} {fiat}
            </td>
          </tr>
          <tr>
            <th scope="row">{t('payout.ourFee')}</th>
            <td>
              {f(quote.ourFee)} {fiat}
            </td>
          </tr>
          <tr class="total">
            <th scope="row">
              {t(
                !bank
                  ? 'cardPayout.arrives'
                  : railKind(bank.rail) === 'bank'
                    ? 'payout.arrives'
                    : `payout.${railKind(bank.rail) as 'mobile' | 'wallet'}.arrives`,
              )}
            </th>
            <td>
              {f(quote.fiatAmount)} {fiat}
            </td>
          </tr>
          <SettlementRows bank={bank} limits={state.limits} currency={fiat} />
        </tbody>
      </table>
      <p class="muted">{t('payout.feesInside')}</p>
      {state.stale ? <Notice tone="warning">{t('error.quoteExpired')}</Notice> : <Countdown expiresAt={quote.expiresAt} />}
      {state.refreshed && <Notice tone="info">{t('quote.refreshed')}</Notice>}
      <div class="actions">
        <button data-back type="button" class="secondary" onClick={() => dispatch({ type: 'BACK' })}>
          {t('app.back')}
        </button>
        <button type="button" class="primary" onClick={() => dispatch(state.stale ? { type: 'REQUOTE' } : { type: 'CONFIRM', now: Date.now() })}>
          {state.stale ? t('quote.tryAgain') : t('payout.continue')}
        </button>
      </div>
    </Screen>
  )
}

/** How the payout travels: a bank payout's rail and its settlement time from GET /limits (the quote's own coarse label when limits are not known); a card's timing. */
function SettlementRows({
  bank,
  limits,
  currency,
}: {
  bank: Extract<State['quote'], { rail: string }> | undefined
  limits: State['limits']
  currency: string
}) {
  if (!bank) {
    return (
      <tr>
        <th scope="row">{t('payout.settlementRow')}</th>
        <td>{t('cardPayout.timing')}</td>
      </tr>
    )
  }
  const entry = limits && pickLimit(limits, { currency, direction: 'payout', rail: bank.rail })
  const settlement = limitText(settlementText((entry || undefined)?.settlement ?? bank.estimatedSettlement))
  return (
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
  )
}
