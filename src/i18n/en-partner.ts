// The partner kit's own refusals in English, fetched with their codes' words (src/errors/kitWords.ts),
// not with the flow.
export const enPartner = {
  'partner.signIn': 'Your sign-in on the site you came from has ended. Sign in again on that site, then try again.',
  // 429 user_limit_reached: the kit refused before creating anything (README, "The kit's own codes").
  'partner.userLimit': "You have reached this site's limit for payments in a day. Nothing was started. Try again tomorrow or with a smaller amount, or contact the site.",
  'partner.refused': "The shop's payment service did not accept this request. Try again; if it keeps happening, tell the site you came from.",
} as const
