// The card flow's strings in English for its first screen, loaded with the flow (see en.ts); the
// later screens' come with them (en-cardLater.ts).
export const enCard = {
  'card.formHeading': 'How much do you want to pay?',
  'card.currency': 'Currency',
  'card.total': 'Total to pay',
  'card.totalHint': 'This is the total charged to your card, fees included.',
  'card.window': 'Between {min} and {max} {currency} per payment.',
  'card.tierNote': 'Your verification level can set a lower ceiling for you, so a payment within this range can still be declined.',
  'card.outsideWindow': 'Card payments in {currency} must be between {min} and {max}.',
  'card.decimals': 'Use at most 2 decimals.',
  'card.submit': 'See what you get',
  'card.indicativeRate': 'About {amount} {asset} (indicative, not reserved)',
} as const
