import { Notice } from '../../components/Notice'
import { Screen } from '../../components/Screen'
import { TxLink } from '../../components/TxLink'
import { type ChainConfig } from '../../config/config'
import type { BankDepositState } from '../../flows/bankDeposit'
import { compareDecimal, formatAmount } from '../../lib/decimal'
import { railName } from '../../lib/limits'
import { bt } from './text'

type State = Extract<BankDepositState, { tag: 'result' }>

/** The end: what arrived and what the wallet got (settled), or why the money goes back (returned). */
export function ResultScreen({ state, locale, chain, onRestart }: { state: State; locale: string; chain: ChainConfig; onRestart: () => void }) {
  const { deposit, status } = state
  const arrived = status.fiatAmount ?? deposit.amount
  const arrivedText = formatAmount(arrived, locale, deposit.currency)
  const rail = railName(deposit.rail)
  const again = (
    <div class="actions">
      <button type="button" class="primary" onClick={onRestart}>
        {bt('bankDeposit.another')}
      </button>
    </div>
  )
  if (status.status === 'returned') {
    const reason = status.reason === 'below_minimum' ? bt('bankDeposit.reasonBelowMin', { rail }) : status.reason
    return (
      <Screen title={bt('bankDeposit.returnedHeading')}>
        <dl class="summary">
          <dt>{bt('bankDeposit.arrived')}</dt>
          <dd>{arrivedText}</dd>
        </dl>
        {reason && <p>{bt('bankDeposit.reason', { reason })}</p>}
        <Notice tone="info">{bt('bankDeposit.returnedBody', { rail })}</Notice>
        {again}
      </Screen>
    )
  }
  const different = status.fiatAmount !== undefined && compareDecimal(status.fiatAmount, deposit.amount) !== 0
  return (
    <Screen title={bt('bankDeposit.settledHeading')}>
      <dl class="summary">
        <dt>{bt('bankDeposit.arrived')}</dt>
        <dd>{arrivedText}</dd>
        {status.cryptoAmount && (
          <>
            <dt>{bt('bankDeposit.delivered')}</dt>
            <dd>
              {formatAmount(status.cryptoAmount, locale)}
              {status.cryptoCurrency ? ` ${status.cryptoCurrency}` : ''}
            </dd>
          </>
        )}
      </dl>
      {different && <p>{bt('bankDeposit.differentAmount', { asked: formatAmount(deposit.amount, locale, deposit.currency), arrived: arrivedText })}</p>}
      {status.settlementTxHash && (
        <p>
          <TxLink chain={chain} hash={status.settlementTxHash} label={bt('bankDeposit.settlementTx')} />
        </p>
      )}
      {again}
    </Screen>
  )
}
