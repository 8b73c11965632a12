// The first identity step: the wallet that receives the stablecoins (the bank flows' first screen).
// Its address typed, or one of the page's wallets connected (the connect-wallet sub-machine: injected
// wallets, and WalletConnect where the partner offers it; WalletChoices.tsx, fetched as the step
// shows, below the field, so nothing moves under the buyer's cursor when it arrives).
import { Screen } from '../../components/Screen'
import type { IdentityEvent, IdentityState } from '../../identity/machine'
import { t } from '../../i18n/i18n'
import { lazyPart, useLazyPart } from '../../kernel/lazyPart'

type Dispatch = (e: IdentityEvent) => void
type State = Extract<IdentityState, { tag: 'wallet' }>

const walletChoices = lazyPart(() => import('./WalletChoices'))

export function WalletStep({ state, dispatch }: { state: State; dispatch: Dispatch }) {
  const later = useLazyPart(walletChoices, true)
  const Choices = later && later !== 'failed' ? later.WalletChoices : undefined
  return (
    <Screen title={t('onboarding.walletHeading')}>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          dispatch({ type: 'SUBMIT_WALLET' })
        }}
      >
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
      {Choices && <Choices state={state} dispatch={dispatch} />}
    </Screen>
  )
}
