import { t } from '../../i18n/i18n'

/**
 * A buyer reused from this device: whose verified account it is (the full wallet address, which
 * wraps at 320 px), and "Not you? Start over" for the next person on a shared device.
 */
export function NotYou({ wallet, disabled, dispatch }: { wallet: string; disabled: boolean; dispatch: (e: { type: 'NOT_YOU' }) => void }) {
  const [before, after = ''] = t('payout.forWallet', { wallet: '\u0000' }).split('\u0000')
  return (
    <>
      <p>
        {before}
        <code>{wallet}</code>
        {after}
      </p>
      <div class="actions">
        <button type="button" class="secondary" disabled={disabled} onClick={() => dispatch({ type: 'NOT_YOU' })}>
          {t('payout.notYou')}
        </button>
      </div>
    </>
  )
}
