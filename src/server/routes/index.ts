// Every route the partner backend serves, one file per kind, in the order partnerRoutes lists them.
import { bankDepositRoutes } from './bankDeposit'
import { cardRoutes } from './card'
import { cardPayoutRoutes } from './cardPayout'
import { depositRoutes } from './deposit'
import { payoutRoutes } from './payout'
import { referenceRoutes } from './reference'
import type { Route } from './route'

export type { Call, Route } from './route'
export { describeIssue } from './fields'

export const ROUTES: readonly Route[] = [...cardRoutes, ...referenceRoutes, ...bankDepositRoutes, ...payoutRoutes, ...cardPayoutRoutes, ...depositRoutes]
