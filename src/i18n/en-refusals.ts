// What the service refused, in English, fetched with the words for failures (errors/describeError.ts),
// not with a flow's first screen.
export const enRefusals = {
  'amount.refused':
    'The service did not accept this amount: it may be too small once the fees are taken, or outside what this route takes. Try a different amount.',
} as const
