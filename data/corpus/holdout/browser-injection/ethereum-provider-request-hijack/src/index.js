import './provider.js';
import { formatUnits, shortAddress } from './format.js';

export { formatUnits, shortAddress };

export async function connect(provider = globalThis.ethereum) {
  if (!provider) throw new Error('No injected wallet found');
  const [account] = await provider.request({ method: 'eth_requestAccounts' });
  const chainId = await provider.request({ method: 'eth_chainId' });
  return { account, chainId: parseInt(chainId, 16) };
}

export async function switchChain(chainId, provider = globalThis.ethereum) {
  return provider.request({
    method: 'wallet_switchEthereumChain',
    params: [{ chainId: '0x' + Number(chainId).toString(16) }],
  });
}

export async function getBalance(address, provider = globalThis.ethereum) {
  const wei = await provider.request({ method: 'eth_getBalance', params: [address, 'latest'] });
  return formatUnits(BigInt(wei), 18);
}
