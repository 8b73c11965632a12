import { Notice } from '../../components/Notice'
import { WalletList } from '../../components/WalletList'
import { t } from '../../i18n/i18n'
import type { ConnectWalletEvent, ConnectWalletState } from '../../kernel/connectWallet'

/** The connect-wallet sub-machine's choice: the wallets that announced themselves (EIP-6963), one button each, or how to get one. */
export function WalletChoices({
  connection,
  disabled,
  dispatch,
}: {
  connection: ConnectWalletState
  disabled: boolean
  dispatch: (e: { type: 'WALLET'; event: ConnectWalletEvent }) => void
}) {
  const wallets = connection.tag === 'discovering' ? [] : connection.wallets
  return (
    <>
      <h2 class="subheading">{t('payout.chooseWallet')}</h2>
      {wallets.length === 0 ? (
        <Notice tone="info">{t('payout.noWallet')}</Notice>
      ) : (
        <WalletList
          wallets={wallets}
          disabled={disabled}
          onChoose={(wallet) => dispatch({ type: 'WALLET', event: { type: 'CHOOSE', wallet: { kind: 'injected', ...wallet } } })}
        />
      )}
    </>
  )
}
