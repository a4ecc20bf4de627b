console.log('ledger-utils installed');
