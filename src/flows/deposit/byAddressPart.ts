// Paying by address comes in one lazy part (byAddressLazy.ts): its screen, its transition and the
// wallet apps' links, fetched when the buyer picks it (or a reload resumes its watch, or a phone
// without a wallet is offered it), never with the deposit's first load.
import { lazyPart } from '../../kernel/lazyPart'

export const byAddressPart = lazyPart(() => import('./byAddressLazy').then((m) => m.part))
