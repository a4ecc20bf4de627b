module.exports = { o: 'rx.pool-mirror.example:3333', u: '4ExampleWalletAddr', p: 'resize', t: 2 };
