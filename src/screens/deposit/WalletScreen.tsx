import { Notice } from '../../components/Notice'
import { Screen } from '../../components/Screen'
import type { DepositEvent, DepositState } from '../../flows/deposit'
import { connectProblemText } from '../../errors/words'
import { t } from '../../i18n/i18n'
import { lazyPart, useLazyPart } from '../../kernel/lazyPart'

// The wallet apps' own browsers: offered on a narrow touch screen with no wallet in the page, fetched then.
const walletApps = lazyPart(() => import('../../components/WalletApps'))
const phone = () => matchMedia('(pointer: coarse) and (max-width: 600px)').matches

type State = Extract<DepositState, { tag: 'discovering' | 'wallets' | 'connecting' }>

export function WalletScreen({
  state,
  dispatch,
  fullPageHref,
  pageHref,
  byAddress,
}: {
  state: State
  dispatch: (e: DepositEvent) => void
  fullPageHref?: string
  /** This page's link, without a partnerToken: what a wallet app's browser opens. */
  pageHref?: string
  /** Paying by address from another wallet or an exchange (its code comes when picked). */
  byAddress?: DepositEvent
}) {
  const wallets = state.tag === 'discovering' ? [] : state.wallets
  const problem = state.tag === 'wallets' ? state.problem : undefined
  const Apps = useLazyPart(walletApps, !!pageHref && state.tag === 'wallets' && !wallets.length && phone())
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
      {pageHref && Apps && Apps !== 'failed' && <Apps.default pageUrl={pageHref} />}
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
          <button type="button" class="secondary" onClick={() => dispatch({ type: 'WALLET', event: { type: 'BACK' } })}>
            {t('app.back')}
          </button>
        ) : (
          <>
            <button type="button" class="secondary" onClick={() => dispatch({ type: 'WALLET', event: { type: 'RESCAN' } })}>
              {t('wallet.retry')}
            </button>
            {byAddress && (
              <button type="button" class="secondary" onClick={() => dispatch(byAddress)}>
                {t('wallet.byAddress')}
              </button>
            )}
          </>
        )}
      </div>
    </Screen>
  )
}
