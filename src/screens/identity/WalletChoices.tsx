// The identity steps' wallet list: the page's wallets, one button each (the connect-wallet
// sub-machine's events under WALLET), while one is asked, and why the last one did not connect. Its
// words come with it (en-identityWallet.ts).
import { Notice } from '../../components/Notice'
import { WalletList } from '../../components/WalletList'
import { identityWalletProblemText } from '../../errors/identityWalletWords'
import type { IdentityEvent, IdentityState } from '../../identity/machine'
import { enIdentityWallet } from '../../i18n/en-identityWallet'
import { addEnglish, t } from '../../i18n/i18n'

addEnglish(enIdentityWallet)

type Dispatch = (e: IdentityEvent) => void
type State = Extract<IdentityState, { tag: 'wallet' }>

/** The page's wallets, one button each (its events under WALLET), while one is asked, and why the last one did not connect. */
export function WalletChoices({ state, dispatch }: { state: State; dispatch: Dispatch }) {
  const { connection } = state
  const wallet = (event: Extract<IdentityEvent, { type: 'WALLET' }>['event']) => dispatch({ type: 'WALLET', event })
  const wallets = connection.tag === 'discovering' ? [] : connection.wallets
  const problem = connection.tag === 'wallets' ? connection.problem : undefined
  return (
    <>
      <h2 class="subheading">{t('onboarding.connectWallet')}</h2>
      {problem && <Notice tone="error">{identityWalletProblemText(problem)}</Notice>}
      {connection.tag === 'connecting' && <p role="status">{t('onboarding.walletConnecting', { wallet: connection.wallet.name })}</p>}
      {connection.tag === 'wallets' && wallets.length === 0 && <p class="muted">{t('onboarding.noWallet')}</p>}
      {wallets.length > 0 && (
        <WalletList
          wallets={wallets}
          disabled={connection.tag === 'connecting'}
          onChoose={(info) => wallet({ type: 'CHOOSE', wallet: { kind: 'injected', ...info } })}
        />
      )}
      {connection.tag === 'connecting' && (
        <div class="actions">
          <button type="button" class="secondary" onClick={() => wallet({ type: 'BACK' })}>
            {t('app.back')}
          </button>
        </div>
      )}
    </>
  )
}
