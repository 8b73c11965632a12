// The first identity step: the wallet that receives the stablecoins (the bank flows' first screen).
// One of the page's wallets connected (the connect-wallet sub-machine: injected wallets, and
// WalletConnect where the partner offers it), or its address typed.
import { Notice } from '../../components/Notice'
import { Screen } from '../../components/Screen'
import { identityWalletProblemText } from '../../errors/words'
import type { IdentityEvent, IdentityState } from '../../identity/machine'
import { t } from '../../i18n/i18n'

type Dispatch = (e: IdentityEvent) => void
type State = Extract<IdentityState, { tag: 'wallet' }>

export function WalletStep({ state, dispatch }: { state: State; dispatch: Dispatch }) {
  return (
    <Screen title={t('onboarding.walletHeading')}>
      <WalletChoices state={state} dispatch={dispatch} />
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          dispatch({ type: 'SUBMIT_WALLET' })
        }}
      >
        <h2 class="subheading">{t('onboarding.orType')}</h2>
        <div class="field">
          <label for="fiat-wallet">{t('onboarding.wallet')}</label>
          <input
            id="fiat-wallet"
            class="text"
            autoComplete="off"
            spellcheck={false}
            value={state.form.wallet}
            aria-invalid={state.error ? 'true' : undefined}
            aria-describedby={state.error ? 'fiat-wallet-hint fiat-wallet-error' : 'fiat-wallet-hint'}
            onInput={(e) => dispatch({ type: 'EDIT', field: 'wallet', value: (e.target as HTMLInputElement).value })}
          />
          <p id="fiat-wallet-hint" class="muted">
            {t('onboarding.walletHint')}
          </p>
          {state.error && (
            <p id="fiat-wallet-error" class="field-error">
              {t(`field.${state.error}`)}
            </p>
          )}
        </div>
        <div class="actions">
          <button type="submit" class="primary">
            {t('onboarding.next')}
          </button>
        </div>
      </form>
    </Screen>
  )
}

/** The page's wallets, one button each (its events under WALLET), while one is asked, and why the last one did not connect. */
function WalletChoices({ state, dispatch }: { state: State; dispatch: Dispatch }) {
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
        <ul class="choices">
          {wallets.map((info) => (
            <li>
              <button
                type="button"
                class="choice"
                disabled={connection.tag === 'connecting'}
                onClick={() => wallet({ type: 'CHOOSE', wallet: { kind: 'injected', ...info } })}
              >
                {info.icon && <img src={info.icon} alt="" width={28} height={28} />}
                <span>{info.name}</span>
              </button>
            </li>
          ))}
        </ul>
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
