import { Notice } from '../../components/Notice'
import type { FundingProblem } from '../../flows/payout'

/**
 * A funding problem in words; when the wallet connected is not the one that must fund the payout,
 * that wallet's address below it (on screen only: the host's `error` event never carries a wallet).
 */
export function WalletProblem({ problem, text }: { problem: FundingProblem; text: string }) {
  const wallet = problem.kind === 'check' && problem.problem.code === 'payout_wallet' ? problem.problem.detail : undefined
  return (
    <>
      <Notice tone="error">{text}</Notice>
      {wallet && (
        <p>
          <code>{wallet}</code>
        </p>
      )}
    </>
  )
}
