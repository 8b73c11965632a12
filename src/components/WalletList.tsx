import type { WalletInfo } from '../kernel/types'

/** The wallets that announced themselves (EIP-6963), one button each; `onChoose` gets the one pressed. */
export function WalletList({ wallets, disabled, onChoose }: { wallets: readonly WalletInfo[]; disabled: boolean; onChoose: (wallet: WalletInfo) => void }) {
  return (
    <ul class="choices">
      {wallets.map((wallet) => (
        <li>
          <button type="button" class="choice" disabled={disabled} onClick={() => onChoose(wallet)}>
            {wallet.icon && <img src={wallet.icon} alt="" width={28} height={28} />}
            <span>{wallet.name}</span>
          </button>
        </li>
      ))}
    </ul>
  )
}
