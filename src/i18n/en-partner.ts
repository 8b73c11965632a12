// The partner kit's own refusals in English, fetched with their codes' words (src/errors/kitWords.ts),
// not with the flow.
export const enPartner = {
  'partner.signIn': 'Your sign-in on the site you came from has ended. Sign in again on that site, then try again.',
  'partner.refused': "The shop's payment service did not accept this request. Try again; if it keeps happening, tell the site you came from.",
} as const
