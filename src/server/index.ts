// stablecoin-widget/server: the partner's backend for the widget. No DOM; runs wherever the
// fetch-standard Request and Response and WebCrypto exist (Node 20, Deno, Bun, workers).
export { createPartnerHandler, type PartnerHandler, type PartnerHandlerOptions, type UserId } from './handler'
export { createNodeListener, type FetchHandler, type NodeListener, type NodeListenerOptions } from './node'
export {
  createPartnerReads,
  type PartnerReads,
  type PartnerReadsOptions,
  type VirtualAccountsFilter,
  VirtualAccountsNotListed,
  type VirtualAccountsPage,
} from './partnerReads'
export type { ApiKey } from './apiKey'
export type { DepositDestination, DepositDestinationOption } from './depositDestination'
export type { ChainsOption, DepositReceipt } from './depositReceipt'
export type { UserLimits } from './userLimits'
export { partnerCorsHeaders, type CorsOptions } from './cors'
export { generateSigningKeys, signWidgetUrl, type EcJwk, type PrivateSigningJwk, type PublicSigningJwk } from './sign'
import { ROUTES } from './routes/index'

/** The paths the handler serves (under its basePath), e.g. to mount each one in a router. */
export const partnerRoutes: ReadonlyArray<{ method: 'GET' | 'POST'; path: string }> = ROUTES.map(({ method, path }) => ({ method, path }))
export * from './store/index'
export * from './reconcile/index'
