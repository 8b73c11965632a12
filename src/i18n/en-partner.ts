// The partner kit's own refusals in English, fetched with their codes' words (src/errors/kitWords.ts),
// not with the flow.
export const enPartner = {
  'partner.signIn': 'Your sign-in on the site you came from has ended. Sign in again on that site, then try again.',
  // 429 user_limit_reached: the kit refused before creating anything (README, "The kit's own codes").
  'partner.userLimit':
    "You have reached this site's limit for payments in a day. Nothing was started. Try again tomorrow or with a smaller amount, or contact the site.",
  // 422 wallet_unverified and 409 wallet_not_owned: the wallet check before a deposit (src/server/walletLink.ts).
  'partner.walletUnverified': 'We could not confirm this wallet is yours (the request may have run out). Nothing was sent. Confirm again.',
  'partner.walletTaken': 'This wallet is linked to another account on this site. Nothing was sent. Use another wallet, or sign in to that account.',
  'partner.addressTaken':
    'The payment service gave an address this site already gave someone else, so it is not shown. Nothing was sent. Ask for the address again, or connect a wallet.',
  'partner.refused': "The shop's payment service did not accept this request. Try again; if it keeps happening, tell the site you came from.",
  // 403 permission_denied: the partner's key lacks the endpoint's permission (the event names which).
  'partner.notOffered': 'This shop does not offer this here. Nothing was started or sent. Choose another option, or ask the shop.',
  // 400 KYC_PENDING / KYC_REJECTED: the banking partner's identity check of this buyer (docs/assumptions.md).
  'partner.kycPending': 'Your identity check is still running, so this cannot go ahead yet. Nothing was created or sent. Try again in a few minutes.',
  'partner.kycRejected':
    'Your identity check was not approved, so this cannot go ahead. Nothing was created or sent. Ask the site you came from how to verify again.',
} as const
