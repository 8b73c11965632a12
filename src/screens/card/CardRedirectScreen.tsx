import { ButtonLink } from '../../components/ButtonLink'
import { Notice } from '../../components/Notice'
import { Screen } from '../../components/Screen'
import type { CardEvent, CardState } from '../../flows/card'
import { addEnglish, t } from '../../i18n/i18n'
import { Environment } from './Environment'
import { enCardLater } from '../../i18n/en-cardLater'

// The strings of the card screens after the form come with them (and with the effects that lead there).
addEnglish(enCardLater)

type State = Extract<CardState, { tag: 'redirect' }>

/**
 * The hosted page navigates by itself. Framed, a navigation needs the buyer's own click: the
 * link opens the card page in a new tab and this frame follows the status meanwhile.
 */
export function CardRedirectScreen({ state, dispatch }: { state: State; dispatch: (e: CardEvent) => void }) {
  return (
    <Screen title={t('card.redirectHeading')}>
      <Environment environment={state.purchase.environment} />
      {state.problem ? (
        <Notice tone="error" code={`redirect_${state.problem}`}>
          {t('card.redirectRefused')}
        </Notice>
      ) : (
        <>
          <p role="status">{t('card.redirecting')}</p>
          <div class="actions">
            <ButtonLink
              class="button primary"
              href={state.redirectUrl}
              target="_blank"
              rel="noopener noreferrer"
              onClick={() => dispatch({ type: 'RETURNED' })}
            >
              {t('card.openPage')}
            </ButtonLink>
          </div>
        </>
      )}
    </Screen>
  )
}
