// Paying by address comes in one lazy part: its screen and its transition, fetched when the buyer
// picks it (or a reload resumes its watch), never with the deposit's first load.
import { lazyPart } from '../../kernel/lazyPart'

export const byAddressPart = lazyPart(() =>
  Promise.all([import('../../screens/deposit/ByAddressScreen'), import('./byAddress')]).then(([screen, machine]) => ({
    Screen: screen.ByAddressScreen,
    transition: machine.byAddressTransition,
  })),
)
