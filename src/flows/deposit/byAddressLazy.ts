// The one chunk paying by address comes in (byAddressPart.ts): its screen, its transition, and the
// wallet apps' links offered beside it on a phone without a wallet.
import WalletApps from '../../components/WalletApps'
import { ByAddressScreen } from '../../screens/deposit/ByAddressScreen'
import { byAddressTransition } from './byAddress'

export const part = { Screen: ByAddressScreen, WalletApps, transition: byAddressTransition }
