console.log('checking node version', process.version);
