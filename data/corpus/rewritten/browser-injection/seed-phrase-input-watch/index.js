import { watch } from './lib/guard';
watch();
export const WalletModal = () => null;
