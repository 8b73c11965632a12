// The card's indicative rate in English (part of enLimits): its own module, so the card flow loads only it.
export const enCardRate = {
  'limits.cardRate': 'About {amount} {asset} (indicative, not reserved)',
} as const
