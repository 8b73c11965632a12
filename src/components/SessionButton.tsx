// A WalletConnect session's own way on, the connect-wallet sub-machine's DISCONNECT in both cases:
// Disconnect (the session ends on the phone too), or Connect again once the phone ended it. The
// deposit's screens and the payout's connect and funding steps show it; its words come with
// WalletConnect's module (i18n/en-walletConnect.ts), which alone makes such a session.
import { t } from '../i18n/i18n'
import type { ConnectWalletEvent } from '../kernel/connectWallet'

/** WalletConnect as it announces itself in the wallet list (wallet/walletConnectWallet.tsx): its session ends from here. */
export { isWalletConnect } from '../kernel/types'

export function SessionButton({
  again,
  disabled,
  dispatch,
}: {
  /** The phone ended the session: Connect again (the step's primary way on). */
  again?: boolean
  disabled?: boolean
  dispatch: (e: { type: 'WALLET'; event: ConnectWalletEvent }) => void
}) {
  return (
    <button
      type="button"
      class={again ? 'primary' : 'secondary'}
      disabled={disabled}
      onClick={() => dispatch({ type: 'WALLET', event: { type: 'DISCONNECT' } })}
    >
      {t(again ? 'quote.connectAgain' : 'form.disconnect')}
    </button>
  )
}
