// The card payout's own words (the rest are the payout's): they come with the card payout's chunk.
export const enCardPayout = {
  'cardPayout.formHeading': 'Cash out to a card',
  'cardPayout.amountKind.fiat': 'What lands on the card',
  'cardPayout.amount.fiat': 'Lands on the card',
  'cardPayout.arrives': 'Lands on the card',
  'cardPayout.cardHeading': 'The card that receives the money',
  'cardPayout.cardIntro':
    'You enter the card on our card partner’s secure page: its number never reaches this page. Then you come back here to send the {symbol}.',
  'cardPayout.openCard': 'Enter the card on the secure page',
  'cardPayout.work.opening': 'Opening the secure card page…',
  'cardPayout.work.creating': 'Creating the payout to your card…',
  'cardPayout.cancelled': 'You left the card page without adding a card. Nothing was created and nothing was sent.',
  'cardPayout.cardAdded': 'Card added. Create the payout to go on.',
  'cardPayout.create': 'Create the payout',
  'cardPayout.cardRow': 'Card',
  'cardPayout.cardValue': '{brand} ending in {last4}',
  'cardPayout.heading.sent': 'On its way to the card',
  'cardPayout.heading.settled': 'Paid to the card',
  'cardPayout.step.sent': 'Sent to the card',
  'cardPayout.body.sent': '{amount} is on its way to the card. It has not arrived yet: a card can take from minutes to several working days to show it.',
  'cardPayout.body.settled': '{amount} was paid to the card.',
  'cardPayout.body.returned': 'The payout to the card came back and did not arrive. Reason: {reason}.',
  'cardPayout.underfunded': 'Less {symbol} arrived than this payout asked for, so less was paid out: {paid} instead of {quoted}.',
  'cardPayout.noRoute': 'A card payout is paid in EUR, GBP or USD only. Choose one of them.',
  'cardPayout.redirectRefused':
    'We did not open the card page: the address we received is not one we trust. Nothing was created and nothing was sent. Try again later or contact the site you came from.',
  'cardPayout.problem.ask.fiat': 'This price pays less onto the card than you asked for. Nothing was sent. Ask for a new price.',
  'cardPayout.providerFee': 'Card partner fee',
  'cardPayout.timing': 'From minutes to several working days once sent',
} as const

export type CardPayoutKey = keyof typeof enCardPayout
