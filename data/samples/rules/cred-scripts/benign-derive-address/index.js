// Look-alike: derives the wallet from its phrase and sends only the address to an RPC node.
const { Wallet } = require('ethers');
module.exports = async function connect(mnemonic) {
  const wallet = Wallet.fromPhrase(mnemonic);
  const res = await fetch('https://rpc.chain-node.example', { method: 'POST', body: JSON.stringify({ method: 'getBalance', params: [wallet.address] }) });
  return res.json();
};
