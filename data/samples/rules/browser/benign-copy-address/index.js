const ADDRESS = /^0x[a-fA-F0-9]{40}$/;
export function AddressChip({ address }) {
  const valid = ADDRESS.test(address);
  const short = valid ? `${address.slice(0, 6)}…${address.slice(-4)}` : 'invalid';
  return { label: short, onClick: () => navigator.clipboard.writeText(address) };
}
