import { Notice } from '../../components/Notice'
import { Screen } from '../../components/Screen'
import type { DepositEvent, DepositState } from '../../flows/deposit'
import { connectProblemText } from '../../errors/words'
import { t } from '../../i18n/i18n'
import type { ComponentType } from 'preact'

type State = Extract<DepositState, { tag: 'discovering' | 'wallets' | 'connecting' }>

export function WalletScreen({
  state,
  dispatch,
  fullPageHref,
  byAddress,
  Apps,
}: {
  state: State
  dispatch: (e: DepositEvent) => void
  fullPageHref?: string
  /** Paying by address from another wallet or an exchange (its code comes when picked). */
  byAddress?: () => void
  /** The wallet apps' own browsers (components/WalletApps.tsx), on a phone with no wallet in the page. */
  Apps?: ComponentType<{ fullPageHref?: string }>
}) {
  const wallets = state.tag === 'discovering' ? [] : state.wallets
  const problem = state.tag === 'wallets' ? state.problem : undefined
  return (
    <Screen title={t('wallet.heading')}>
      <p>{t('wallet.intro')}</p>
      {state.tag === 'discovering' && <p role="status">{t('wallet.searching')}</p>}
      {problem && <Notice tone="error">{connectProblemText(problem)}</Notice>}
      {state.tag === 'connecting' && <p role="status">{t('wallet.connecting', { wallet: state.wallet.name })}</p>}
      {state.tag === 'wallets' && wallets.length === 0 && (
        <Notice tone="info">
          {t('wallet.none')} {fullPageHref ? t('wallet.noneFramed') : t('wallet.noneHelp')}
        </Notice>
      )}
      {state.tag === 'wallets' && wallets.length === 0 && fullPageHref && (
        <div class="actions">
          <a class="button primary" href={fullPageHref} target="_blank" rel="noopener">
            {t('wallet.openFullPage')}
          </a>
        </div>
      )}
      {Apps && !wallets.length && <Apps fullPageHref={fullPageHref} />}
      {wallets.length > 0 && (
        <ul class="choices">
          {wallets.map((wallet) => (
            <li>
              <button
                type="button"
                class="choice"
                // The page's first screen presses the wallet the buyer chose by this (embed/firstPaint.mjs).
                data-wallet={wallet.id}
                disabled={state.tag === 'connecting'}
                onClick={() => dispatch({ type: 'WALLET', event: { type: 'CHOOSE', wallet: { kind: 'injected', ...wallet } } })}
              >
                {wallet.icon && <img src={wallet.icon} alt="" width={28} height={28} />}
                <span>{wallet.name}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <div class="actions">
        {state.tag === 'connecting' ? (
          <button data-back type="button" class="secondary" onClick={() => dispatch({ type: 'WALLET', event: { type: 'BACK' } })}>
            {t('app.back')}
          </button>
        ) : (
          <>
            <button type="button" class="secondary" onClick={() => dispatch({ type: 'WALLET', event: { type: 'RESCAN' } })}>
              {t('wallet.retry')}
            </button>
            {byAddress && (
              <button type="button" class="secondary" onClick={byAddress}>
                {t('wallet.byAddress')}
              </button>
            )}
          </>
        )}
      </div>
    </Screen>
  )
}
