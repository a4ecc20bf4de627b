if (!process.versions.node) console.warn('tz-offsets-table needs Node.js');
