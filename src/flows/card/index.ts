// The card flow's door for its screens (src/screens/card/): what they may read of the flow.
export type { CardEvent, CardState } from './machine'
export { waysOn } from './machine'
