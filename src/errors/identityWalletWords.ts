// Why connecting the wallet that receives failed, at the identity steps, in the buyer's words (with
// the list that shows it, screens/identity/WalletChoices.tsx): typing the address is the other way on.
import { type MessageKey, t } from '../i18n/i18n'
import type { WalletProblem } from './WalletError'

const IDENTITY_WALLET: Record<WalletProblem | 'noAccount', MessageKey> = {
  rejected: 'onboarding.walletProblem.rejected',
  pending: 'onboarding.walletProblem.pending',
  noAccount: 'onboarding.walletProblem.noAccount',
  unsupportedChain: 'onboarding.walletProblem.other',
  disconnected: 'onboarding.walletProblem.other',
  ended: 'onboarding.walletProblem.ended',
  unknown: 'onboarding.walletProblem.other',
}

export function identityWalletProblemText(problem: WalletProblem | 'noAccount'): string {
  return t(IDENTITY_WALLET[problem])
}
