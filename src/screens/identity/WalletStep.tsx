// The first identity step: the wallet that receives the stablecoins (the bank flows' first screen).
import { Screen } from '../../components/Screen'
import type { IdentityEvent, IdentityState } from '../../identity/machine'
import { t } from '../../i18n/i18n'

type Dispatch = (e: IdentityEvent) => void

export function WalletStep({ state, dispatch }: { state: Extract<IdentityState, { tag: 'wallet' }>; dispatch: Dispatch }) {
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
    </Screen>
  )
}
